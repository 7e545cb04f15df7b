#include "observations/capture.h"

#include <climits>
#include <cmath>
#include <sstream>

#include "forward/errors.h"

namespace softfit {

int Capture::totalPoints() const {
  int n = 0;
  for (const CaptureFrame& f : frames) n += f.cloud.size();
  return n;
}

int frameStride(const Capture& capture, double simulationDt) {
  if (!(capture.dt > 0.0)) throw InputError(capture.source + ": the capture has no positive dt");
  return observationStride(capture.dt, simulationDt, capture.source);
}

int observationStride(double observedDt, double simulationDt, const std::string& source) {
  if (!(simulationDt > 0.0)) throw InputError("frame stride: the simulation dt must be positive");
  const double ratio = observedDt / simulationDt;
  const double stride = std::round(ratio);
  if (!(stride >= 1.0 && stride <= INT_MAX) || std::abs(ratio - stride) > 1e-6 * stride) {
    std::ostringstream msg;
    msg << source << ": dt " << observedDt << " is not an integer multiple of the simulation dt " << simulationDt
        << " (ratio " << ratio << ")";
    throw InputError(msg.str());
  }
  return static_cast<int>(stride);
}

}  // namespace softfit

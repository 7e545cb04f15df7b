#include "observations/capture.h"

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
  if (!(simulationDt > 0.0)) throw InputError("frame stride: the simulation dt must be positive");
  if (!(capture.dt > 0.0)) throw InputError(capture.source + ": the capture has no positive dt");
  const double ratio = capture.dt / simulationDt;
  const double stride = std::round(ratio);
  if (stride < 1.0 || std::abs(ratio - stride) > 1e-6 * stride) {
    std::ostringstream msg;
    msg << capture.source << ": capture dt " << capture.dt << " is not an integer multiple of the simulation dt "
        << simulationDt << " (ratio " << ratio << ")";
    throw InputError(msg.str());
  }
  return static_cast<int>(stride);
}

}  // namespace softfit

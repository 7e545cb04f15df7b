#include "reconstruct/depth_noise.h"

#include <algorithm>
#include <cmath>

namespace softfit {

double DepthNoise::sigma(double z) const {
  return std::max(sensor.axialSigma(z), depthScale / std::sqrt(12.0));
}

}  // namespace softfit

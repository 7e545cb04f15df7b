#include "observations/gaussian_noise.h"

#include <cmath>

#include "forward/errors.h"

namespace softfit {

double GaussianNoise::uniform() {
  // (k + 1) / 2^53 with k uniform in [0, 2^53): never 0, so log() below is finite.
  return (static_cast<double>(engine_() >> 11) + 1.0) * 0x1.0p-53;
}

double GaussianNoise::next() {
  if (hasSpare_) {
    hasSpare_ = false;
    return spare_;
  }
  const double u1 = uniform();
  const double u2 = uniform();
  const double r = std::sqrt(-2.0 * std::log(u1));
  const double angle = 2.0 * M_PI * u2;
  spare_ = r * std::sin(angle);
  hasSpare_ = true;
  return r * std::cos(angle);
}

void addGaussianNoise(PointCloud& cloud, double sigma, GaussianNoise& noise) {
  if (!(sigma >= 0.0) || !std::isfinite(sigma)) throw InputError("noise: sigma must be >= 0 and finite");
  if (sigma == 0.0) return;
  for (int i = 0; i < cloud.size(); ++i)
    for (int c = 0; c < 3; ++c) cloud.points(i, c) += sigma * noise.next();
}

}  // namespace softfit

#pragma once
// Reproducible Gaussian noise: std::mt19937_64 (fully specified by the standard) and a
// hand-written Box-Muller transform (std::normal_distribution is implementation-defined),
// so a seed gives the same numbers with every standard library.
#include <cstdint>
#include <random>

#include "observations/point_cloud.h"

namespace softfit {

class GaussianNoise {
 public:
  explicit GaussianNoise(std::uint64_t seed) : engine_(seed) {}
  // Next standard normal sample (mean 0, standard deviation 1).
  double next();
  // Uniform in (0, 1]: 53 random bits.
  double uniform();

 private:
  std::mt19937_64 engine_;
  double spare_ = 0.0;
  bool hasSpare_ = false;
};

// Adds independent N(0, sigma^2) noise to every coordinate of every point, in point
// order (x, y, z). sigma = 0 leaves the cloud unchanged and draws nothing. Throws
// InputError when sigma is negative or not finite.
void addGaussianNoise(PointCloud& cloud, double sigma, GaussianNoise& noise);

}  // namespace softfit

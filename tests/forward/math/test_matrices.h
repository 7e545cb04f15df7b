#pragma once
// Seeded random matrices for the math tests.
#include <Eigen/Geometry>
#include <random>

#include "forward/types.h"

namespace softfit::test {

inline Mat3 randomMatrix(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Mat3 m;
  for (int k = 0; k < 9; ++k) m(k) = scale * u(rng);
  return m;
}

inline Mat3 randomRotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::Quaterniond q(n(rng), n(rng), n(rng), n(rng));
  return q.normalized().toRotationMatrix();
}

// U diag(s) V^T with random rotations U, V.
inline Mat3 withSingularValues(std::mt19937& rng, const Vec3& s) {
  return randomRotation(rng) * s.asDiagonal() * randomRotation(rng);
}

}  // namespace softfit::test

#pragma once
// Shared helpers for the material tests: the model list, seeded sample deformation
// gradients and central finite differences.
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "forward/materials/material.h"

namespace softfit::test {

inline const std::vector<MaterialModel>& allModels() {
  static const std::vector<MaterialModel> models = {
      MaterialModel::Linear,     MaterialModel::WarpedCorotated,  MaterialModel::Corotated,
      MaterialModel::NeoHookean, MaterialModel::StableNeoHookean, MaterialModel::StVK,
      MaterialModel::ARAP};
  return models;
}

inline bool isNonlinear(MaterialModel m) {
  return m != MaterialModel::Linear && m != MaterialModel::WarpedCorotated;
}

inline Mat3 randomRotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::Quaterniond q(n(rng), n(rng), n(rng), n(rng));
  return q.normalized().toRotationMatrix();
}

inline Mat3 randomPerturbation(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Mat3 m;
  for (int k = 0; k < 9; ++k) m(k) = scale * u(rng);
  return m;
}

struct Sample {
  std::string name;
  Mat3 F;
};

// Near identity, large stretch (2-3x, plus compression) and inverted (det F < 0).
inline std::vector<Sample> sampleDeformations() {
  std::mt19937 rng(20240611);
  std::vector<Sample> out;
  for (int k = 0; k < 3; ++k)
    out.push_back({"near_identity_" + std::to_string(k), Mat3::Identity() + randomPerturbation(rng, 0.1)});
  out.push_back({"stretch_2_5x", randomRotation(rng) * Vec3(2.5, 1.4, 0.7).asDiagonal() * randomRotation(rng)});
  out.push_back({"stretch_3x", randomRotation(rng) * Vec3(3.0, 2.0, 0.5).asDiagonal() * randomRotation(rng) +
                                   randomPerturbation(rng, 0.05)});
  out.push_back({"inverted_mild", randomRotation(rng) * Vec3(1.2, 0.9, -0.3).asDiagonal() * randomRotation(rng)});
  out.push_back({"inverted_strong", randomRotation(rng) * Vec3(2.0, 0.8, -0.7).asDiagonal() * randomRotation(rng)});
  return out;
}

inline LameParameters testParameters() { return {3.0, 7.0}; }

// ||a - b|| <= tol * max(||a||, ||b||, floor): relative with an absolute floor for
// quantities that are exactly zero.
template <typename A, typename B>
bool relativelyClose(const A& a, const B& b, double tol, double floor = 1e-300) {
  return (a - b).norm() <= tol * std::max({a.norm(), b.norm(), floor});
}

}  // namespace softfit::test

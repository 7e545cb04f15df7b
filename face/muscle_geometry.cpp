#include "face/muscle_geometry.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "forward/errors.h"

namespace softfit::face {

MuscleGeometry::MuscleGeometry(int muscleCount, const std::vector<std::vector<int>>& allowedMuscles)
    : muscleCount_(muscleCount) {
  rowStart_.assign(1, 0);
  for (std::size_t i = 0; i < allowedMuscles.size(); ++i) {
    std::vector<int> row = allowedMuscles[i];
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    columns_.push_back(0);
    for (int c : row) {
      if (c < 1 || c > muscleCount)
        throw InputError("muscle geometry: tet " + std::to_string(i) + " names muscle column " + std::to_string(c) +
                         " (valid: 1.." + std::to_string(muscleCount) + ")");
      columns_.push_back(c);
    }
    rowStart_.push_back(static_cast<int>(columns_.size()));
  }
  values_ = VecX::Zero(columns_.size());
  for (int i = 0; i < tetCount(); ++i) values_[rowStart_[i]] = 1.0;
}

void MuscleGeometry::setValues(const VecX& values) {
  if (values.size() != values_.size())
    throw InputError("muscle geometry: " + std::to_string(values.size()) + " values for " +
                     std::to_string(values_.size()) + " entries");
  for (int i = 0; i < tetCount(); ++i) {
    double sum = 0.0;
    for (int k = rowBegin(i); k < rowEnd(i); ++k) {
      if (!std::isfinite(values[k]) || values[k] < -1e-8 || values[k] > 1.0 + 1e-8)
        throw InputError("muscle geometry: tet " + std::to_string(i) + " has an entry outside [0, 1]");
      sum += values[k];
    }
    if (std::abs(sum - 1.0) > 1e-8)
      throw InputError("muscle geometry: row of tet " + std::to_string(i) + " sums to " + std::to_string(sum) +
                       ", not 1");
  }
  values_ = values;
}

double MuscleGeometry::value(int tet, int column) const {
  for (int k = rowBegin(tet); k < rowEnd(tet); ++k)
    if (columns_[k] == column) return values_[k];
  return 0.0;
}

void MuscleGeometry::setRow(int tet, const VecX& weights) {
  double allowedSum = 0.0;
  for (int k = rowBegin(tet); k < rowEnd(tet); ++k) allowedSum += weights[columns_[k]];
  if (std::abs(allowedSum - weights.sum()) > 1e-12)
    throw InputError("muscle geometry: tet " + std::to_string(tet) + " has weight on a muscle outside its radius");
  for (int k = rowBegin(tet); k < rowEnd(tet); ++k) values_[k] = weights[columns_[k]];
}

void MuscleGeometry::projectToSimplex(VecX& values) const {
  // Sort-based projection (Duchi et al. 2008) per row.
  std::vector<double> u;
  for (int i = 0; i < tetCount(); ++i) {
    const int b = rowBegin(i), n = rowEnd(i) - b;
    u.assign(values.data() + b, values.data() + b + n);
    std::sort(u.begin(), u.end(), std::greater<double>());
    double cumulative = 0.0, theta = 0.0;
    for (int k = 0; k < n; ++k) {
      cumulative += u[k];
      const double t = (cumulative - 1.0) / (k + 1);
      if (u[k] - t > 0.0) theta = t;
    }
    for (int k = 0; k < n; ++k) values[b + k] = std::max(values[b + k] - theta, 0.0);
  }
}

MatX MuscleGeometry::dense() const {
  MatX S = MatX::Zero(tetCount(), muscleCount_ + 1);
  for (int i = 0; i < tetCount(); ++i)
    for (int k = rowBegin(i); k < rowEnd(i); ++k) S(i, columns_[k]) = values_[k];
  return S;
}

std::vector<Vec6> MuscleGeometry::tetActivations(const std::vector<Vec6>& muscleActivations) const {
  std::vector<Vec6> a(tetCount());
  const Vec6 passive = identityActivation();
  for (int i = 0; i < tetCount(); ++i) {
    Vec6 s = Vec6::Zero();
    for (int k = rowBegin(i); k < rowEnd(i); ++k)
      s += values_[k] * (columns_[k] == 0 ? passive : muscleActivations[columns_[k] - 1]);
    a[i] = s;
  }
  return a;
}

std::vector<Vec6> MuscleGeometry::muscleGradient(const std::vector<Vec6>& tetGradient) const {
  std::vector<Vec6> g(muscleCount_, Vec6::Zero());
  for (int i = 0; i < tetCount(); ++i)
    for (int k = rowBegin(i); k < rowEnd(i); ++k)
      if (columns_[k] > 0) g[columns_[k] - 1] += values_[k] * tetGradient[i];
  return g;
}

VecX MuscleGeometry::valueGradient(const std::vector<Vec6>& tetGradient,
                                   const std::vector<Vec6>& muscleActivations) const {
  VecX g(values_.size());
  const Vec6 passive = identityActivation();
  for (int i = 0; i < tetCount(); ++i)
    for (int k = rowBegin(i); k < rowEnd(i); ++k)
      g[k] = tetGradient[i].dot(columns_[k] == 0 ? passive : muscleActivations[columns_[k] - 1]);
  return g;
}

}  // namespace softfit::face

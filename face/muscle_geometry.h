#pragma once
// The muscle geometry matrix S (tets x (muscles + 1), docs/theory.rst, section 6),
// stored sparse: each tet row lists the columns that may be nonzero (column 0 = passive
// tissue, always allowed, then the muscles within the radius of the tet, ascending), and
// their values.
// Rows lie on the probability simplex (entries in [0, 1] summing to 1). Tet i's
// activation is a_i = sum_j S_ij a_j with a_0 = the identity activation.
#include <vector>

#include "face/activation.h"

namespace softfit::face {

class MuscleGeometry {
 public:
  MuscleGeometry() = default;
  // allowedMuscles[i]: muscle columns (1..muscleCount) allowed for tet i. Values start
  // passive (S_i0 = 1). Throws InputError on out-of-range columns.
  MuscleGeometry(int muscleCount, const std::vector<std::vector<int>>& allowedMuscles);

  int tetCount() const { return static_cast<int>(rowStart_.size()) - 1; }
  int muscleCount() const { return muscleCount_; }
  int entryCount() const { return static_cast<int>(columns_.size()); }
  int rowBegin(int tet) const { return rowStart_[tet]; }
  int rowEnd(int tet) const { return rowStart_[tet + 1]; }
  int column(int entry) const { return columns_[entry]; }

  // Flat entry values (row by row): the free parameters of an S fit.
  const VecX& values() const { return values_; }
  // Throws InputError when the size is wrong or a row is off the simplex by > 1e-8.
  void setValues(const VecX& values);
  // No simplex check: for derivative tests and trial points of optimizers.
  void assignValues(const VecX& values) { values_ = values; }
  double value(int tet, int column) const;  // 0 for entries not allowed
  // Sets row `tet` from dense column weights (size muscles+1); disallowed columns must be 0.
  void setRow(int tet, const VecX& weights);

  // Euclidean projection of each row (restricted to its allowed entries) onto the simplex.
  void projectToSimplex(VecX& values) const;

  // Dense S (tets x (muscles+1)).
  MatX dense() const;

  // a_i = sum_j S_ij a_j for every tet; muscleActivations has muscleCount entries.
  std::vector<Vec6> tetActivations(const std::vector<Vec6>& muscleActivations) const;
  // Chain rule: given dL/da_i per tet, dL/da_j per muscle (sum_i S_ij dL/da_i) and
  // dL/dS per entry (dL/da_i . a_j).
  std::vector<Vec6> muscleGradient(const std::vector<Vec6>& tetGradient) const;
  VecX valueGradient(const std::vector<Vec6>& tetGradient, const std::vector<Vec6>& muscleActivations) const;

  // Same muscles, allowed entries and values.
  bool operator==(const MuscleGeometry& other) const {
    return muscleCount_ == other.muscleCount_ && rowStart_ == other.rowStart_ && columns_ == other.columns_ &&
           values_.size() == other.values_.size() && values_ == other.values_;
  }
  bool operator!=(const MuscleGeometry& other) const { return !(*this == other); }

 private:
  int muscleCount_ = 0;
  std::vector<int> rowStart_{0};
  std::vector<int> columns_;
  VecX values_;
};

}  // namespace softfit::face

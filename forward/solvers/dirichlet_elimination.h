#pragma once
// Symmetric elimination of prescribed degrees of freedom from a linear system:
// A x = b with x_c = value_c for the constrained dofs c.
#include <vector>

#include "forward/types.h"

namespace softfit {

// Marks constrained dofs (size 3N, true = prescribed).
using DofMask = std::vector<char>;

// Moves the known columns to the right-hand side (b_f -= A_fc value_c), zeroes the
// constrained rows and columns, puts 1 on their diagonal and sets b_c = value_c.
// Keeps the sparsity pattern (explicit zeros), so a symbolic analysis stays valid.
void eliminateDirichlet(SparseMatrix& A, VecX& b, const DofMask& fixed, const VecX& values);

// The free rows of A's constrained columns (A_fc), kept from before eliminateDirichlet
// zeroes them, for right-hand sides whose constrained values are known only later:
// subtractProduct(v, b) does b_f -= A_fc v_c, what eliminateDirichlet does for its values.
class ConstrainedColumns {
 public:
  ConstrainedColumns() = default;
  // A's structure (square, compressed); then setValues(A) before each use.
  ConstrainedColumns(const SparseMatrix& A, const DofMask& fixed);
  // A's current values (the structure given above), before the elimination.
  void setValues(const SparseMatrix& A);
  // b_f -= A_fc v_c (v's free entries and b's constrained ones are not touched).
  void subtractProduct(const VecX& v, Eigen::Ref<VecX> b) const;

 private:
  std::vector<int> index_, row_, column_;  // value index in A, its row and column
  VecX values_;
};

// Zeroes the constrained rows of v (a vector, or every column of a matrix, column by
// column).
void zeroConstrained(Eigen::Ref<MatX> v, const DofMask& fixed);

// Largest |v_i| over the free (unconstrained) entries; 0 when none is free.
double freeInfinityNorm(const VecX& v, const DofMask& fixed);

}  // namespace softfit

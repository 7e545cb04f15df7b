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

// Zeroes the constrained rows of v (a vector, or every column of a matrix, column by
// column).
void zeroConstrained(Eigen::Ref<MatX> v, const DofMask& fixed);

// Largest |v_i| over the free (unconstrained) entries; 0 when none is free.
double freeInfinityNorm(const VecX& v, const DofMask& fixed);

}  // namespace softfit

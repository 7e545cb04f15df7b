#pragma once
// Derivatives of J = det F, valid for singular and inverted F (no inverse is formed).
#include <Eigen/LU>  // MatrixBase::determinant

#include "forward/types.h"

namespace softfit {

// dJ/dF = cof(F) = J F^{-T}: the columns are f1 x f2, f2 x f0, f0 x f1 (f_k = F.col(k)).
Mat3 cofactor(const Mat3& F);

// d^2 J / d vec(F)^2 (column-major vec, 9x9, symmetric, linear in F).
Mat9 determinantHessian(const Mat3& F);

}  // namespace softfit

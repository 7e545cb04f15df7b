#pragma once
// Symmetric stretch variables of mixed FEM (Trusty, Kaufman, Levin 2022): the polar
// decomposition F = R S gives the symmetric stretch S = R^T F, stored as a 6-vector in
// the order (11, 12, 13, 22, 23, 33) (docs/theory.rst, section 6's Sym). With the sign-fixed
// polar decomposition (forward/math/polar_decomposition.h) R stays a rotation for
// inverted F and S is symmetric with det S = det F.
#include "forward/element.h"

namespace softfit {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Mat69 = Eigen::Matrix<double, 6, 9>;
using Mat96 = Eigen::Matrix<double, 9, 6>;

// S as a 6-vector and back (the symmetric 3x3 matrix with those entries).
Vec6 voigtFromSymmetric(const Mat3& S);
Mat3 symmetricFromVoigt(const Vec6& s);
// vec(S) = P s (column-major vec): each off-diagonal entry of s appears twice.
const Mat96& symmetricExpansion();

// s(F) = Voigt(R^T F).
Vec6 stretchOf(const Mat3& F);
// d s / d vec(F) (6 x 9), through the polar rotation derivative.
Mat69 stretchDerivative(const Mat3& F);

// Per quadrature point: dF/dx of an element (9 x 3n, column-major vec(F), node-major x),
// and the chain d s(F(x)) / dx = stretchDerivative(F) * dF/dx (6 x 3n).
MatX deformationGradientJacobian(const Element& e, const QuadraturePoint& q);
MatX stretchJacobian(const Element& e, const QuadraturePoint& q, const Mat3& F);

}  // namespace softfit

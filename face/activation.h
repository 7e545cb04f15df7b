#pragma once
// Muscle activations: a symmetric 3x3 matrix stored as a 6-vector a in the order
// (11, 12, 13, 22, 23, 33) (docs/theory.rst, section 6), Sym(a) the matrix. The identity
// activation (1, 0, 0, 1, 0, 1) is the passive (rest) state.
#include "forward/types.h"

namespace softfit::face {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat96 = Eigen::Matrix<double, 9, 6>;
using Mat12x6 = Eigen::Matrix<double, 12, 6>;

Vec6 identityActivation();
// (row, column) of a's six entries in the symmetric matrix (upper triangle, by rows).
inline constexpr int kActivationRow[6] = {0, 0, 0, 1, 1, 2};
inline constexpr int kActivationColumn[6] = {0, 1, 2, 1, 2, 2};
Mat3 symmetricFromActivation(const Vec6& a);
Vec6 activationFromSymmetric(const Mat3& A);  // reads the upper triangle
// d vec(Sym(a)) / da (column-major vec, 9x6, constant).
const Mat96& activationJacobian();

// det Sym(a) and its gradient with respect to a (the volume regularizer).
double activationDeterminant(const Vec6& a);
Vec6 activationDeterminantGradient(const Vec6& a);

// A volume-preserving contraction along unit direction d: s d d^T + s^{-1/2} (I - d d^T)
// (stretch s < 1 shortens the fibre). Used by the synthetic data and examples.
Vec6 fibreContraction(const Vec3& direction, double stretch);

}  // namespace softfit::face

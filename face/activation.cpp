#include "face/activation.h"

#include <Eigen/LU>
#include <cmath>

#include "forward/math/determinant.h"

namespace softfit::face {

namespace {
Mat96 makeJacobian() {
  Mat96 E = Mat96::Zero();
  for (int k = 0; k < 6; ++k) {
    E(kActivationRow[k] + 3 * kActivationColumn[k], k) = 1.0;
    E(kActivationColumn[k] + 3 * kActivationRow[k], k) = 1.0;  // same entry on the diagonal
  }
  return E;
}
}  // namespace

Vec6 identityActivation() {
  Vec6 a;
  a << 1, 0, 0, 1, 0, 1;
  return a;
}

Mat3 symmetricFromActivation(const Vec6& a) {
  Mat3 A;
  A << a[0], a[1], a[2], a[1], a[3], a[4], a[2], a[4], a[5];
  return A;
}

Vec6 activationFromSymmetric(const Mat3& A) {
  Vec6 a;
  for (int k = 0; k < 6; ++k) a[k] = A(kActivationRow[k], kActivationColumn[k]);
  return a;
}

const Mat96& activationJacobian() {
  static const Mat96 E = makeJacobian();
  return E;
}

double activationDeterminant(const Vec6& a) { return symmetricFromActivation(a).determinant(); }

Vec6 activationDeterminantGradient(const Vec6& a) {
  const Mat3 c = cofactor(symmetricFromActivation(a));
  return activationJacobian().transpose() * flatten(c);
}

Vec6 fibreContraction(const Vec3& direction, double stretch) {
  const Vec3 d = direction.normalized();
  const Mat3 P = d * d.transpose();
  return activationFromSymmetric(stretch * P + (Mat3::Identity() - P) / std::sqrt(stretch));
}

}  // namespace softfit::face

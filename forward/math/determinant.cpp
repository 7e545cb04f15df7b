#include "forward/math/determinant.h"

#include <Eigen/Geometry>  // cross

namespace softfit {

namespace {
Mat3 crossMatrix(const Vec3& a) {
  Mat3 m;
  m << 0.0, -a.z(), a.y(),  //
      a.z(), 0.0, -a.x(),   //
      -a.y(), a.x(), 0.0;
  return m;
}
}  // namespace

Mat3 cofactor(const Mat3& F) {
  Mat3 C;
  C.col(0) = F.col(1).cross(F.col(2));
  C.col(1) = F.col(2).cross(F.col(0));
  C.col(2) = F.col(0).cross(F.col(1));
  return C;
}

Mat9 determinantHessian(const Mat3& F) {
  // Block (a, b) = d cof(F).col(a) / d F.col(b); vec(F) = (f0; f1; f2).
  const Mat3 X0 = crossMatrix(F.col(0));
  const Mat3 X1 = crossMatrix(F.col(1));
  const Mat3 X2 = crossMatrix(F.col(2));
  Mat9 H = Mat9::Zero();
  H.block<3, 3>(0, 3) = -X2;
  H.block<3, 3>(0, 6) = X1;
  H.block<3, 3>(3, 0) = X2;
  H.block<3, 3>(3, 6) = -X0;
  H.block<3, 3>(6, 0) = -X1;
  H.block<3, 3>(6, 3) = X0;
  return H;
}

}  // namespace softfit

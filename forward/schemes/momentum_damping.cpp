#include "forward/schemes/momentum_damping.h"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <stdexcept>

namespace softfit {

namespace {

Mat3 cross(const Vec3& r) {
  Mat3 c;
  c << 0.0, -r.z(), r.y(), r.z(), 0.0, -r.x(), -r.y(), r.x(), 0.0;
  return c;
}

}  // namespace

Vec3 linearMomentum(const VecX& mass, const VecX& v) {
  Vec3 p = Vec3::Zero();
  for (Eigen::Index i = 0; i < v.size() / 3; ++i) p += mass[3 * i] * v.segment<3>(3 * i);
  return p;
}

Vec3 angularMomentum(const VecX& mass, const VecX& x, const VecX& v) {
  Vec3 l = Vec3::Zero();
  for (Eigen::Index i = 0; i < v.size() / 3; ++i)
    l += mass[3 * i] * x.segment<3>(3 * i).cross(v.segment<3>(3 * i));
  return l;
}

RigidMotion rigidMotionOf(const VecX& mass, const VecX& x, const VecX& v) {
  RigidMotion rigid;
  const Eigen::Index n = x.size() / 3;
  double total = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    total += mass[3 * i];
    rigid.centerOfMass += mass[3 * i] * x.segment<3>(3 * i);
    rigid.velocity += mass[3 * i] * v.segment<3>(3 * i);
  }
  if (total <= 0.0) return rigid;
  rigid.centerOfMass /= total;
  rigid.velocity /= total;
  Vec3 l = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
  for (Eigen::Index i = 0; i < n; ++i) {
    const Vec3 r = x.segment<3>(3 * i) - rigid.centerOfMass;
    l += mass[3 * i] * r.cross(v.segment<3>(3 * i) - rigid.velocity);
    const Mat3 rc = cross(r);
    inertia -= mass[3 * i] * rc * rc;  // m (|r|^2 I - r r^T)
  }
  const Eigen::FullPivLU<Mat3> lu(inertia);
  if (lu.isInvertible()) rigid.angularVelocity = lu.solve(l);
  return rigid;
}

void applyMomentumPreservingDamping(const VecX& mass, const VecX& x, double k, VecX& v) {
  if (!(k >= 0.0 && k <= 1.0)) throw std::invalid_argument("momentum-preserving damping: k must lie in [0, 1]");
  if (k == 0.0) return;
  const RigidMotion rigid = rigidMotionOf(mass, x, v);
  for (Eigen::Index i = 0; i < x.size() / 3; ++i) {
    const Vec3 r = x.segment<3>(3 * i) - rigid.centerOfMass;
    const Vec3 target = rigid.velocity + rigid.angularVelocity.cross(r);
    v.segment<3>(3 * i) += k * (target - v.segment<3>(3 * i));
  }
}

}  // namespace softfit

#include "face/jaw_joint.h"

#include <Eigen/Geometry>

namespace softfit::face {

namespace {
Mat3 rotation(const Vec3& axis, double angle) { return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(); }
Mat3 cross(const Vec3& v) {
  Mat3 m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}
}  // namespace

Vec3 jawPosition(const JawJoint& joint, const JawPose& pose, const Vec3& rest) {
  const Mat3 R = rotation(joint.sideAxis, pose[1]) * rotation(joint.openAxis, pose[0]);
  return joint.pivot + R * (rest - joint.pivot) + pose.tail<3>();
}

Mat35 jawPositionJacobian(const JawJoint& joint, const JawPose& pose, const Vec3& rest) {
  const Mat3 Rs = rotation(joint.sideAxis, pose[1]);
  const Mat3 Ro = rotation(joint.openAxis, pose[0]);
  const Vec3 d = rest - joint.pivot;
  Mat35 J;
  J.col(0) = Rs * cross(joint.openAxis.normalized()) * Ro * d;
  J.col(1) = cross(joint.sideAxis.normalized()) * Rs * Ro * d;
  J.rightCols<3>() = Mat3::Identity();
  return J;
}

}  // namespace softfit::face

#pragma once
// The 5-DoF jaw (docs/theory.rst, section 6): mandible-attached nodes move rigidly,
//   x = pivot + R_side(theta_side) R_open(theta_open) (X - pivot) + t,
// with the pose (theta_open, theta_side, t_x, t_y, t_z): two rotations (radians) about the
// joint's opening and side axes through the pivot, then a translation.
#include "forward/types.h"

namespace softfit::face {

using JawPose = Eigen::Matrix<double, 5, 1>;
using Mat35 = Eigen::Matrix<double, 3, 5>;
constexpr int kJawDofs = 5;

struct JawJoint {
  Vec3 pivot = Vec3::Zero();
  Vec3 openAxis = Vec3::UnitX();  // unit; rotation opening the mouth
  Vec3 sideAxis = Vec3::UnitY();  // unit; lateral (grinding) rotation
};

Vec3 jawPosition(const JawJoint& joint, const JawPose& pose, const Vec3& rest);
// d jawPosition / d pose (3x5).
Mat35 jawPositionJacobian(const JawJoint& joint, const JawPose& pose, const Vec3& rest);

}  // namespace softfit::face

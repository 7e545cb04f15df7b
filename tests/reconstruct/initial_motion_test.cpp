// Initial motion from the first frames: rigid ICP of a partial view (three faces of a
// box, sampled anew in every frame) recovers a known rotation and translation, and
// estimateInitialMotion recovers a thrown body's velocity and angular velocity under
// gravity from frames 1..3; bit-identical repeats.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <random>

#include "reconstruct/initial_motion.h"

namespace softfit {
namespace {

// `count` points on the three faces x = 0, y = 0, z = 0 of the box [0, 0.3] x [0, 0.2]
// x [0, 0.1] (what one camera sees of it), then moved: R (p - c) + c + shift.
PointCloud boxFaces(int count, unsigned seed, const Mat3& r = Mat3::Identity(), const Vec3& shift = Vec3::Zero(),
                    const Vec3& c = Vec3::Zero()) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const Vec3 size(0.3, 0.2, 0.1);
  PointCloud cloud;
  cloud.points.resize(count, 3);
  for (int i = 0; i < count; ++i) {
    Vec3 p(u(rng) * size.x(), u(rng) * size.y(), u(rng) * size.z());
    p[i % 3] = 0.0;
    cloud.points.row(i) = (r * (p - c) + c + shift).transpose();
  }
  return cloud;
}

TEST(InitialMotion, RegistersAPartialViewUnderResampling) {
  const Mat3 r = Eigen::AngleAxisd(0.05, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  const Vec3 shift(0.02, -0.01, 0.015);
  const PointCloud source = boxFaces(3000, 1), target = boxFaces(3000, 2, r, shift);
  double rms = 0.0;
  const RigidTransform t = registerRigid(source.points, target.points, {}, &rms);
  EXPECT_LT(Eigen::AngleAxisd(t.rotation.transpose() * r).angle(), 0.005);
  EXPECT_LT((t.translation - shift).norm(), 0.002);
  EXPECT_LT(rms, 0.005);
}

TEST(InitialMotion, RecoversVelocityAndAngularVelocityOfAThrow) {
  const Vec3 v(0.5, 1.0, -0.2), w(0.3, -0.6, 0.9), g(0, -9.81, 0);
  const double dt = 0.01;
  const PointCloud rest = boxFaces(4000, 7);
  const Vec3 c = rest.points.colwise().mean().transpose();
  std::vector<PointCloud> frames;
  for (int k = 0; k <= 3; ++k) {
    const double t = k * dt;
    const Mat3 r = w.norm() * t > 0 ? Eigen::AngleAxisd(w.norm() * t, w.normalized()).toRotationMatrix() : Mat3::Identity();
    frames.push_back(boxFaces(4000, 100 + k, r, v * t + 0.5 * g * t * t, c));
  }
  InitialMotionOptions spin;
  spin.angular = true;
  const InitialMotionEstimate m = estimateInitialMotion(rest, frames, dt, g, spin);
  ASSERT_TRUE(m.estimated);
  EXPECT_EQ(m.framesUsed, 3);
  EXPECT_LT((m.velocity - v).norm(), 0.03 * v.norm()) << m.velocity.transpose();
  EXPECT_LT((m.angularVelocity - w).norm(), 0.1 * w.norm()) << m.angularVelocity.transpose();
  // Without gravity in the model the vertical velocity is off by g t / 2 on average.
  const InitialMotionEstimate noGravity = estimateInitialMotion(rest, frames, dt, Vec3::Zero(), spin);
  EXPECT_GT(std::abs(noGravity.velocity.y() - v.y()), 0.05);

  const InitialMotionEstimate again = estimateInitialMotion(rest, frames, dt, g, spin);
  EXPECT_EQ(again.velocity, m.velocity);
  EXPECT_EQ(again.angularVelocity, m.angularVelocity);
  // Without options.angular the angular velocity is 0 and the velocity the same.
  const InitialMotionEstimate still = estimateInitialMotion(rest, frames, dt, g);
  EXPECT_EQ(still.velocity, m.velocity);
  EXPECT_EQ(still.angularVelocity, Vec3::Zero());

  InitialMotionOptions off;
  off.frames = 0;
  EXPECT_FALSE(estimateInitialMotion(rest, frames, dt, g, off).estimated);
  EXPECT_FALSE(estimateInitialMotion(rest, {frames[0], PointCloud{}}, dt, g).estimated);
}

}  // namespace
}  // namespace softfit

// Initial rigid motion from the motion frames before the first contact: a box (0.3 x 0.2
// x 0.1 m, so that no two axes are alike) seen by three cameras, each frame sampled
// anew with 2 mm noise on the faces the cameras see. Thrown with spins of 0 to 5 rad/s
// it gives v within 3% and omega within 0.15 rad/s; frames after a landing that squashes
// it are not used (the squash is not read as a spin); a box sliding on the floor is
// recognised as sliding; bit-identical repeats.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <random>

#include "grid/sdf_primitives.h"
#include "grid/sdf_volume.h"
#include "reconstruct/initial_motion.h"
#include "reconstruct/surface_extraction.h"

namespace softfit {
namespace {

const Vec3 kHalf(0.15, 0.1, 0.05);
const Vec3 kCenter(0.0, 0.3, 0.0);
const Vec3 kGravity(0.0, -9.81, 0.0);
const Vec3 kUp = Vec3::UnitY();
constexpr double kDt = 0.01;

TriangleSurface restBox() { return extractZeroSurface(sampleSdf(BoxSdf(kCenter, kHalf), 0.006)); }

Mat3 rotation(const Vec3& theta) {
  return theta.norm() > 0.0 ? Mat3(Eigen::AngleAxisd(theta.norm(), theta.normalized())) : Mat3::Identity();
}

// What three cameras at 1.5 m see of the box at pose (R, centre c), `squash` < 1 scaling
// it along the world up axis about its lowest point (a landing), with noise.
PointCloud observe(const Mat3& r, const Vec3& c, double squash, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::normal_distribution<double> noise(0.0, 0.002);
  const Vec3 cameras[3] = {Vec3(1.5, 0.6, 0.0), Vec3(-0.75, 0.6, 1.3), Vec3(-0.75, 0.6, -1.3)};
  std::vector<Vec3> points;
  for (int face = 0; face < 6; ++face) {
    const int axis = face / 2;
    const double side = face % 2 ? 1.0 : -1.0;
    Vec3 normal = Vec3::Zero();
    normal[axis] = side;
    for (int i = 0; i < 1500; ++i) {
      Vec3 p(u(rng) * kHalf.x(), u(rng) * kHalf.y(), u(rng) * kHalf.z());
      p[axis] = side * kHalf[axis];
      Vec3 x = r * p + c;
      const Vec3 n = r * normal;
      bool seen = false;
      for (const Vec3& camera : cameras) seen = seen || n.dot(camera - x) > 0.0;
      if (!seen) continue;
      const double lowest = c.y() - (r.cwiseAbs() * kHalf).y();
      x.y() = lowest + squash * (x.y() - lowest);
      for (int k = 0; k < 3; ++k) x[k] += noise(rng);
      points.push_back(x);
    }
  }
  PointCloud cloud;
  cloud.points.resize(static_cast<Eigen::Index>(points.size()), 3);
  for (std::size_t i = 0; i < points.size(); ++i) cloud.points.row(static_cast<Eigen::Index>(i)) = points[i].transpose();
  return cloud;
}

// Frames 0..count-1 of a rigid flight of the box's centre with acceleration a and a
// constant spin; from frame `landing` on, the box is squashed by 10% more each frame.
std::vector<PointCloud> flight(const Vec3& v, const Vec3& omega, const Vec3& a, int count, int landing) {
  std::vector<PointCloud> frames;
  for (int k = 0; k < count; ++k) {
    const double t = k * kDt;
    const double squash = k >= landing ? 1.0 - 0.1 * (k - landing + 1) : 1.0;
    frames.push_back(observe(rotation(omega * t), kCenter + v * t + 0.5 * a * t * t, squash, 100 + k));
  }
  return frames;
}

TEST(InitialMotion, ThrownWithSpinsFromZeroToFive) {
  const TriangleSurface rest = restBox();
  const Vec3 v(0.8, 1.2, -0.4);
  for (const Vec3& omega : {Vec3(0, 0, 0), Vec3(0.5, -1.0, 2.0), Vec3(-3.0, 2.0, 1.5), Vec3(0.0, 4.0, -3.0)}) {
    const InitialMotionEstimate m = estimateInitialMotion(rest, flight(v, omega, kGravity, 14, 99), kDt, kGravity, kUp);
    ASSERT_TRUE(m.estimated);
    EXPECT_FALSE(m.sliding);
    EXPECT_EQ(m.framesUsed, 13) << omega.transpose();
    EXPECT_LT((m.center - kCenter).norm(), 1e-3);
    EXPECT_LT((m.velocity - v).norm(), 0.03 * v.norm()) << omega.transpose() << ": " << m.velocity.transpose();
    EXPECT_LT((m.angularVelocity - omega).norm(), 0.15) << omega.transpose() << ": " << m.angularVelocity.transpose();
  }
}

TEST(InitialMotion, ALandingsSquashIsNotReadAsASpin) {
  const TriangleSurface rest = restBox();
  const Vec3 v(0.5, -1.0, 0.0);
  const InitialMotionEstimate m = estimateInitialMotion(rest, flight(v, Vec3::Zero(), kGravity, 14, 6), kDt, kGravity, kUp);
  ASSERT_TRUE(m.estimated);
  EXPECT_LE(m.framesUsed, 5);  // frames 1..5 fly; 6 is squashed
  EXPECT_GE(m.framesUsed, 4);
  EXPECT_LT((m.velocity - v).norm(), 0.03 * v.norm()) << m.velocity.transpose();
  EXPECT_LT(m.angularVelocity.norm(), 0.15) << m.angularVelocity.transpose();
  // Without the landing test (every frame used, v from all of them) the squash bends v.
  InitialMotionOptions all;
  all.deviationFactor = 1e9;
  all.positionTolerance = 1e9;
  all.velocityFrames = 0;
  const InitialMotionEstimate bent = estimateInitialMotion(rest, flight(v, Vec3::Zero(), kGravity, 14, 6), kDt, kGravity, kUp, all);
  EXPECT_EQ(bent.framesUsed, 13);
  EXPECT_GT((bent.velocity - v).norm(), 0.03 * v.norm()) << bent.velocity.transpose();
}

TEST(InitialMotion, ABoxSlidingOnTheFloorIsSliding) {
  const TriangleSurface rest = restBox();
  const Vec3 v(1.0, 0.0, 0.5), omega(0.0, 2.0, 0.0);
  const InitialMotionEstimate m = estimateInitialMotion(rest, flight(v, omega, Vec3::Zero(), 12, 99), kDt, kGravity, kUp);
  ASSERT_TRUE(m.estimated);
  EXPECT_TRUE(m.sliding);
  EXPECT_EQ(m.framesUsed, 11);
  EXPECT_LT((m.velocity - v).norm(), 0.03 * v.norm()) << m.velocity.transpose();
  EXPECT_LT((m.angularVelocity - omega).norm(), 0.15) << m.angularVelocity.transpose();
}

TEST(InitialMotion, RepeatsBitsAndHonoursItsOptions) {
  const TriangleSurface rest = restBox();
  const Vec3 v(0.8, 1.2, -0.4), omega(0.5, -1.0, 2.0);
  const std::vector<PointCloud> frames = flight(v, omega, kGravity, 8, 99);
  const InitialMotionEstimate m = estimateInitialMotion(rest, frames, kDt, kGravity, kUp);
  const InitialMotionEstimate again = estimateInitialMotion(rest, frames, kDt, kGravity, kUp);
  EXPECT_EQ(again.velocity, m.velocity);
  EXPECT_EQ(again.angularVelocity, m.angularVelocity);
  // Without the angular option omega is 0 and the velocity the same.
  InitialMotionOptions still;
  still.angular = false;
  const InitialMotionEstimate noSpin = estimateInitialMotion(rest, frames, kDt, kGravity, kUp, still);
  EXPECT_EQ(noSpin.velocity, m.velocity);
  EXPECT_EQ(noSpin.angularVelocity, Vec3::Zero());
  // At most `frames` frames are registered.
  InitialMotionOptions three;
  three.frames = 3;
  EXPECT_EQ(estimateInitialMotion(rest, frames, kDt, kGravity, kUp, three).framesRegistered, 3);

  InitialMotionOptions off;
  off.frames = 0;
  EXPECT_FALSE(estimateInitialMotion(rest, frames, kDt, kGravity, kUp, off).estimated);
  EXPECT_FALSE(estimateInitialMotion(rest, {frames[0], PointCloud{}}, kDt, kGravity, kUp).estimated);
  EXPECT_FALSE(estimateInitialMotion(TriangleSurface{}, frames, kDt, kGravity, kUp).estimated);
}

TEST(InitialMotion, EnclosedCentroidOfABox) {
  // The unit cube's 12 outward triangles, shifted: the centroid is its centre, exactly
  // for any triangulation; a surface that encloses nothing gives the vertex mean.
  TriangleSurface cube;
  cube.vertices.resize(8, 3);
  for (int i = 0; i < 8; ++i) cube.vertices.row(i) = Vec3(i & 1, (i >> 1) & 1, (i >> 2) & 1).transpose() + Vec3(2, 3, 4).transpose();
  cube.triangles.resize(12, 3);
  cube.triangles << 0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3,
      7, 5;
  ASSERT_NEAR(enclosedVolume(cube), 1.0, 1e-12);
  EXPECT_LT((enclosedCentroid(cube) - Vec3(2.5, 3.5, 4.5)).norm(), 1e-12);
  TriangleSurface flat = cube;
  flat.triangles.conservativeResize(2, 3);
  flat.triangles.row(1) = flat.triangles.row(0).reverse();
  EXPECT_LT((enclosedCentroid(flat) - Vec3(2.5, 3.5, 4.5)).norm(), 1e-12);
}

}  // namespace
}  // namespace softfit

// Segmentation of a synthetic frame with known labels: floor, points below it, a static
// background flag, a far wall outside the workspace, a clutter box apart from the
// object, sparse outliers, and the object (a box standing on the floor).
#include <gtest/gtest.h>

#include <random>

#include "reconstruct/object_segmentation.h"

namespace softfit {
namespace {

struct Frame {
  std::vector<Vec3> points;
  std::vector<PointLabel> truth;
  std::vector<bool> background;
  void add(const Vec3& p, PointLabel label, bool flagged = false) {
    points.push_back(p);
    truth.push_back(label);
    background.push_back(flagged);
  }
};

// Points on the surface of an axis box [lo, hi] except its bottom, spacing h.
void addBoxSurface(Frame& frame, const Vec3& lo, const Vec3& hi, double h, PointLabel label) {
  for (double x = lo.x(); x <= hi.x() + 1e-12; x += h)
    for (double z = lo.z(); z <= hi.z() + 1e-12; z += h) frame.add(Vec3(x, hi.y(), z), label);
  for (double y = lo.y() + h; y < hi.y(); y += h) {
    for (double x = lo.x(); x <= hi.x() + 1e-12; x += h) {
      frame.add(Vec3(x, y, lo.z()), label);
      frame.add(Vec3(x, y, hi.z()), label);
    }
    for (double z = lo.z() + h; z < hi.z(); z += h) {
      frame.add(Vec3(lo.x(), y, z), label);
      frame.add(Vec3(hi.x(), y, z), label);
    }
  }
}

TEST(ObjectSegmentation, SyntheticFrameWithKnownLabels) {
  Frame frame;
  const double h = 0.01;
  for (double x = -0.8; x <= 0.8; x += 0.02)
    for (double z = -0.8; z <= 0.8; z += 0.02) frame.add(Vec3(x, 0.0005, z), PointLabel::Ground);
  for (int i = 0; i < 20; ++i) frame.add(Vec3(0.5 - 0.01 * i, -0.05, 0.3), PointLabel::BelowGround);
  addBoxSurface(frame, Vec3(-0.1, 0.0, -0.1), Vec3(0.1, 0.2, 0.1), h, PointLabel::Object);
  addBoxSurface(frame, Vec3(0.45, 0.0, -0.1), Vec3(0.6, 0.15, 0.05), h, PointLabel::OtherComponent);  // clutter
  for (double y = 0.05; y < 1.0; y += 0.02)
    for (double z = -0.5; z <= 0.5; z += 0.02) frame.add(Vec3(2.0, y, z), PointLabel::OutsideWorkspace);  // wall
  for (double y = 0.05; y < 0.3; y += 0.02) frame.add(Vec3(-0.6, y, 0.6), PointLabel::StaticBackground, true);
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> u(-0.7, 0.7), up(0.3, 0.9);
  for (int i = 0; i < 10; ++i) frame.add(Vec3(u(rng), up(rng), u(rng)), PointLabel::Outlier);  // sparse, in the air

  PointMatrix points(frame.points.size(), 3);
  for (std::size_t i = 0; i < frame.points.size(); ++i) points.row(i) = frame.points[i].transpose();
  const std::vector<double> sigmas(frame.points.size(), 0.002);
  Workspace workspace;
  workspace.centre = Vec3(0.0, 0.1, 0.0);
  workspace.radius = 1.0;
  workspace.height = 1.5;
  SegmentationOptions options;
  options.clusterRadius = 0.03;
  const FrameSegmentation seg =
      segmentObject(points, sigmas, frame.background, Vec3::UnitY(), 0.0, workspace, workspace.centre, options);

  int wrong = 0, objectTruth = 0;
  for (std::size_t i = 0; i < frame.truth.size(); ++i) {
    const PointLabel expected = frame.truth[i];
    // Outliers are found either by the statistical filter or as DBSCAN noise: both are "not the object".
    const bool ok = expected == PointLabel::Outlier
                        ? seg.labels[i] == PointLabel::Outlier || seg.labels[i] == PointLabel::OtherComponent
                        : seg.labels[i] == expected;
    if (!ok) ++wrong;
    if (expected == PointLabel::Object) ++objectTruth;
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(seg.objectCount, objectTruth);
  EXPECT_NEAR(seg.objectCentroid.x(), 0.0, 0.005);
  EXPECT_NEAR(seg.objectCentroid.z(), 0.0, 0.005);
}

TEST(ObjectSegmentation, NothingAboveTheGroundGivesNoObject) {
  PointMatrix points(100, 3);
  for (int i = 0; i < 100; ++i) points.row(i) = Vec3(0.01 * i, 0.0, 0.0).transpose();
  const FrameSegmentation seg = segmentObject(points, std::vector<double>(100, 0.002), {}, Vec3::UnitY(), 0.0,
                                              Workspace{}, Vec3::Zero(), SegmentationOptions{});
  EXPECT_EQ(seg.objectCount, 0);
}

}  // namespace
}  // namespace softfit

// Raw synthetic captures: depth PNGs + intrinsics + rest frames that loadCapture reads,
// bit-identical for a seed, the ideal sensor without background = the plain rendering,
// and the writer's input checks.
#include "observations/raw_depth_capture.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "forward/mesh/temp_directory.h"
#include "observations/camera_rig.h"
#include "observations/capture_io.h"
#include "observations/depth_frame.h"
#include "observations/depth_renderer.h"
#include "observations_test_support.h"

namespace softfit {
namespace {

struct SmallScene {
  testing::Surface body = testing::makeBoxSurface(Vec3(-0.15, 0.0, -0.15), Vec3(0.15, 0.3, 0.15), 1, 0.0, 0);
  EmbeddedSurface surface = identityEmbedding(static_cast<int>(body.positions.size() / 3), body.triangles);
  std::vector<State> states;
  std::vector<Camera> cameras;
  StaticGeometry background;

  SmallScene() {
    states = testing::translatedStates(body.positions, 5, 0.01, 0.01);
    Vec3 lo, hi;
    boundingBox(body.positions, lo, hi);
    CameraRigOptions rig;
    rig.layout = CameraLayout::Hemisphere;
    rig.width = 32;
    rig.height = 24;
    cameras = camerasAroundBox(lo, hi, 2, rig);
    BackgroundOptions o;
    o.hasGround = true;
    background = makeStaticBackground(lo, hi, cameras, o);
  }
};

std::string bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(RawDepthCapture, WritesDepthImagesAndRestFramesThatLoad) {
  const SmallScene s;
  TempDirectory dir("softfit-raw-");
  RawCaptureOptions o;
  o.sensor = DepthSensorModel::kinectV1();
  o.seed = 3;
  o.stride = 2;
  o.restFrames = 3;
  o.simulationDt = 0.01;
  const RawCaptureSummary sum = writeRawDepthCapture(dir.file("a"), s.states, s.surface, s.background, s.cameras, o);
  EXPECT_EQ(sum.frames, 3);  // steps 0, 2, 4
  EXPECT_EQ(sum.restFrames, 3);
  EXPECT_EQ(sum.images, 6 * 2);
  for (const char* f : {"capture.json", "depth/cam1.json", "depth/frame_000002_cam1.png", "depth/rest_000002_cam0.png"})
    EXPECT_TRUE(std::filesystem::exists(dir.file("a") + "/" + f)) << f;
  EXPECT_FALSE(std::filesystem::exists(dir.file("a") + "/frames"));
  const Capture c = loadCapture(dir.file("a"));
  EXPECT_DOUBLE_EQ(c.dt, 0.02);
  ASSERT_EQ(c.frameCount(), 3);
  ASSERT_EQ(c.restFrames.size(), 3u);
  EXPECT_EQ(c.totalPoints() + c.restFrames[0].cloud.size() + c.restFrames[1].cloud.size() +
                c.restFrames[2].cloud.size(),
            sum.measuredPixels);
  // The floor is in view: points on the ground plane y = 0 away from the body.
  int floor = 0;
  for (int i = 0; i < c.frames[0].cloud.size(); ++i) {
    const Vec3 p = c.frames[0].cloud.point(i);
    if (std::abs(p.y()) < 0.02 && std::hypot(p.x(), p.z()) > 0.4) ++floor;
  }
  EXPECT_GT(floor, 20);
  // Rest frames: same positions, independent noise.
  EXPECT_NE(bytes(dir.file("a") + "/depth/rest_000000_cam0.png"), bytes(dir.file("a") + "/depth/rest_000001_cam0.png"));
  // Same seed: the same bytes; another seed: others.
  writeRawDepthCapture(dir.file("b"), s.states, s.surface, s.background, s.cameras, o);
  o.seed = 4;
  writeRawDepthCapture(dir.file("c"), s.states, s.surface, s.background, s.cameras, o);
  for (const char* f : {"/depth/frame_000001_cam0.png", "/depth/rest_000000_cam1.png"}) {
    EXPECT_EQ(bytes(dir.file("a") + f), bytes(dir.file("b") + f));
    EXPECT_NE(bytes(dir.file("a") + f), bytes(dir.file("c") + f));
  }
}

TEST(RawDepthCapture, IdealWithoutBackgroundIsThePlainRendering) {
  const SmallScene s;
  TempDirectory dir("softfit-raw-");
  RawCaptureOptions o;
  o.simulationDt = 0.01;
  o.depthScale = 1e-4;
  writeRawDepthCapture(dir.path(), s.states, s.surface, StaticGeometry{}, s.cameras, o);
  EXPECT_FALSE(loadCapture(dir.path()).restFrames.size());
  const DepthImage16 image = readDepthPng(dir.file("depth/frame_000004_cam1.png"));
  const DepthMap expected = renderDepth(s.cameras[1], s.states[4].x, s.body.triangles);
  EXPECT_EQ(image.values, quantizeDepth(expected, 1e-4).values);
  EXPECT_GT(expected.validCount(), 50);
}

TEST(RawDepthCapture, InputChecks) {
  const SmallScene s;
  TempDirectory dir("softfit-raw-");
  RawCaptureOptions o;
  o.simulationDt = 0.01;
  o.restFrames = -1;
  testing::expectInputError(
      [&] { writeRawDepthCapture(dir.path(), s.states, s.surface, s.background, s.cameras, o); }, {"rest frames"});
  o.restFrames = 0;
  o.simulationDt = 0.0;
  testing::expectInputError(
      [&] { writeRawDepthCapture(dir.path(), s.states, s.surface, s.background, s.cameras, o); }, {"dt"});
  o.simulationDt = 0.01;
  o.sensor.dropoutProbability = 2.0;
  testing::expectInputError(
      [&] { writeRawDepthCapture(dir.path(), s.states, s.surface, s.background, s.cameras, o); }, {"probabilit"});
  // The body out of range of every camera: no measurement at all.
  o.sensor = DepthSensorModel::kinectV1();
  o.sensor.minRangeMetres = 30.0;
  o.sensor.maxRangeMetres = 40.0;
  testing::expectInputError(
      [&] { writeRawDepthCapture(dir.path(), s.states, s.surface, StaticGeometry{}, s.cameras, o); },
      {"frame 0", "no camera measures"});
}

}  // namespace
}  // namespace softfit

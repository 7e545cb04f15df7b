// Capture folders: the bundled fixture (PLY, XYZ and depth-PNG frames), write / load
// round trips of rendered captures, frame strides, and every malformed-capture error.
#include "observations/capture_io.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "forward/mesh/temp_directory.h"
#include "observations/camera_rig.h"
#include "observations/point_cloud_loss.h"
#include "observations/render_capture.h"
#include "observations/xyz_io.h"
#include "observations_test_support.h"

namespace softfit {
namespace {

using testing::expectInputError;
using testing::writeFile;

const std::string kFixture = std::string(SOFTFIT_SOURCE_DIR) + "/data/captures/tiny";

TEST(CaptureIo, LoadsTheBundledFixture) {
  const Capture c = loadCapture(kFixture);
  EXPECT_EQ(c.source, kFixture);
  EXPECT_EQ(c.dt, 0.04);
  ASSERT_EQ(c.frameCount(), 3);
  EXPECT_EQ(c.frames[0].cloud.size(), 4);
  EXPECT_EQ(c.frames[0].cloud.point(2), Vec3(1, 1, 0));
  EXPECT_EQ(c.frames[1].weight, 0.5);
  EXPECT_EQ(c.frames[1].cloud.point(3), Vec3(0, 1, 0.5));
  // Depth frame: 4x3 image at 2 m from a camera at z = 2 looking down -z, one hole.
  EXPECT_EQ(c.frames[2].weight, 2.0);
  ASSERT_EQ(c.frames[2].cloud.size(), 11);
  for (int i = 0; i < 11; ++i) EXPECT_NEAR(c.frames[2].cloud.points(i, 2), 0.0, 1e-15);
  EXPECT_NEAR((c.frames[2].cloud.point(0) - Vec3(-1.5, 1, 0)).norm(), 0, 1e-15);  // pixel (0, 0)
  // A frame of one depth image keeps each point's pixel (v w + u, the hole skipped);
  // cloud files carry none.
  ASSERT_EQ(c.frames[2].cloud.pixels.size(), 11u);
  EXPECT_EQ(c.frames[2].cloud.pixels.front(), 0);
  EXPECT_EQ(c.frames[2].cloud.pixels.back(), 11);
  EXPECT_TRUE(c.frames[0].cloud.pixels.empty());
  EXPECT_EQ(c.totalPoints(), 19);
  EXPECT_EQ(frameStride(c, 0.01), 4);
  expectInputError([&] { frameStride(c, 0.03); }, {kFixture, "integer multiple"});
}

TEST(CaptureIo, RenderedCaptureRoundTripsThroughEveryCloudFormat) {
  TempDirectory dir("softfit-capture-");
  const auto s = testing::makeBoxSurface(Vec3(-0.4, 0, -0.3), Vec3(0.4, 0.5, 0.3), 2, 0.0, 0);
  std::vector<State> states;
  for (int k = 0; k < 4; ++k) {
    VecX x = s.positions;
    for (int i = 0; i < x.size() / 3; ++i) x[3 * i + 1] += 0.02 * k;
    states.push_back({x, VecX::Zero(x.size()), 0.005 * k});
  }
  Vec3 lo, hi;
  boundingBox(s.positions, lo, hi);
  CameraRigOptions rig;
  rig.width = rig.height = 20;
  Capture c = renderCapture(states, s.triangles, camerasAroundBox(lo, hi, 9, rig), NoiseOptions{1e-3, 5}, 1, 0.005);
  c.frames[2].weight = 3.0;
  for (const auto format : {CloudFileFormat::PlyBinary, CloudFileFormat::PlyAscii, CloudFileFormat::Xyz}) {
    const std::string d = dir.file("c" + std::to_string(static_cast<int>(format)));
    writeCapture(d, c, format);
    EXPECT_TRUE(std::filesystem::exists(d + "/frames/frame_000003" + cloudFileExtension(format)));
    const Capture back = loadCapture(d);
    EXPECT_EQ(back.dt, c.dt);
    ASSERT_EQ(back.frameCount(), 4);
    for (int f = 0; f < 4; ++f) {
      EXPECT_EQ(back.frames[f].frame, f);
      EXPECT_EQ(back.frames[f].weight, c.frames[f].weight);
      EXPECT_EQ(back.frames[f].cloud.points, c.frames[f].cloud.points);
    }
    // The loaded capture drives the loss like the in-memory one.
    PointCloudLossOptions o;
    o.stride = frameStride(back, 0.005);
    PointCloudSurfaceLoss a(back, s.triangles, o), b(c, s.triangles, o);
    VecX ga = VecX::Zero(s.positions.size()), gb = ga, gv = ga;
    EXPECT_EQ(a.evaluate(2, states[2], ga, gv), b.evaluate(2, states[2], gb, gv));
    EXPECT_EQ(ga, gb);
  }
  // Writer checks: frames in order, positive dt, no empty frame unless allowed.
  Capture bad = c;
  bad.dt = 0;
  expectInputError([&] { writeCapture(dir.file("x"), bad); }, {"capture.json", "dt"});
  bad = c;
  bad.frames[1].cloud = PointCloud{};
  expectInputError([&] { writeCapture(dir.file("x"), bad); }, {"capture.json", "frame 1", "empty"});
  writeCapture(dir.file("allowed"), bad, CloudFileFormat::PlyBinary, true);
  EXPECT_EQ(loadCapture(dir.file("allowed")).frames[1].cloud.size(), 0);
  std::swap(bad.frames[0], bad.frames[1]);
  expectInputError([&] { writeCapture(dir.file("x"), bad); }, {"capture.json", "numbered"});
}

// DIR/a.xyz (two points) and DIR/empty.xyz (none).
void writeSmallClouds(const std::string& dir) {
  PointCloud square;
  square.points.resize(2, 3);
  square.points << 0, 0, 0, 1, 1, 1;
  writeXyz(dir + "/a.xyz", square);
  writeXyz(dir + "/empty.xyz", PointCloud{});
}

TEST(CaptureIo, RestFramesRoundTripAndLoadFromDepthImages) {
  TempDirectory dir("softfit-capture-");
  const auto s = testing::makeBoxSurface(Vec3(-0.4, 0, -0.3), Vec3(0.4, 0.5, 0.3), 2, 0.0, 0);
  const std::vector<State> states(3, State{s.positions, VecX::Zero(s.positions.size()), 0.0});
  Vec3 lo, hi;
  boundingBox(s.positions, lo, hi);
  CameraRigOptions rig;
  rig.width = rig.height = 12;
  const auto cameras = camerasAroundBox(lo, hi, 3, rig);
  Capture c = renderCapture(states, s.triangles, cameras, NoiseOptions{1e-3, 5}, 1, 0.01);
  const Capture rest = renderCapture(states, s.triangles, cameras, NoiseOptions{1e-3, 6}, 1, 0.01);
  c.restFrames = {rest.frames[0], rest.frames[1]};
  c.restFrames[1].weight = 0.25;
  writeCapture(dir.file("c"), c);
  EXPECT_TRUE(std::filesystem::exists(dir.file("c") + "/frames/rest_000001.ply"));
  const Capture back = loadCapture(dir.file("c"));
  ASSERT_EQ(back.frameCount(), 3);
  ASSERT_EQ(back.restFrames.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(back.restFrames[k].frame, k);
    EXPECT_EQ(back.restFrames[k].weight, c.restFrames[k].weight);
    EXPECT_EQ(back.restFrames[k].cloud.points, c.restFrames[k].cloud.points);
  }
  EXPECT_NE(back.restFrames[0].cloud.points, back.frames[0].cloud.points);  // independent noise
  // A capture without rest frames loads with none and writes no "rest_frames".
  EXPECT_TRUE(loadCapture(kFixture).restFrames.empty());
  Capture plain = c;
  plain.restFrames.clear();
  writeCapture(dir.file("p"), plain);
  EXPECT_TRUE(loadCapture(dir.file("p")).restFrames.empty());
  // Rest frames given as depth images, like the fixture's frame 2.
  const std::string d = dir.file("depth");
  std::filesystem::create_directories(d);
  std::filesystem::copy(kFixture, d, std::filesystem::copy_options::recursive);
  writeFile(d + "/capture.json", R"({"frame_count": 1, "dt": 0.1, "frames": [{"frame": 0, "cloud": "frame_000000.ply"}],
    "rest_frames": [{"frame": 1, "depth": [{"image": "depth_000002.png", "intrinsics": "camera0.json"}]},
                    {"frame": 0, "cloud": "frame_000000.ply"}]})");
  const Capture depth = loadCapture(d);
  ASSERT_EQ(depth.restFrames.size(), 2u);
  EXPECT_EQ(depth.restFrames[1].cloud.size(), 11);
  EXPECT_EQ(depth.restFrames[0].cloud.size(), 4);
  EXPECT_EQ(depth.restFrames[1].cloud.pixels.size(), 11u);
  // Writer: rest frames in order.
  std::swap(c.restFrames[0], c.restFrames[1]);
  expectInputError([&] { writeCapture(dir.file("x"), c); }, {"capture.json", "rest frame 0", "numbered"});
}

TEST(CaptureIo, MalformedRestFramesNameTheFileAndRestFrame) {
  TempDirectory dir("softfit-capture-");
  const std::string d = dir.path();
  const std::string json = d + "/capture.json";
  writeSmallClouds(d);
  const auto capture = [&](const std::string& rest) {
    writeFile(json, R"({"frame_count": 1, "dt": 0.1, "frames": [{"frame": 0, "cloud": "a.xyz"}], "rest_frames": )" +
                        rest + "}");
  };
  capture("{}");
  expectInputError([&] { loadCapture(d); }, {json, "rest_frames", "array"});
  capture(R"([{"frame": 0, "cloud": "a.xyz"}, {"frame": 2, "cloud": "a.xyz"}])");
  expectInputError([&] { loadCapture(d); }, {json, "rest_frames[1].frame = 2", "outside"});
  capture(R"([{"frame": 0, "cloud": "a.xyz"}, {"frame": 0, "cloud": "a.xyz"}])");
  expectInputError([&] { loadCapture(d); }, {json, "rest frame 0 is listed twice", "rest_frames[1]"});
  capture(R"([{"frame": 0}])");
  expectInputError([&] { loadCapture(d); }, {json, "rest_frames[0] (rest frame 0)", "no data"});
  capture(R"([{"frame": 0, "cloud": "a.xyz", "mask": "m.png"}])");
  expectInputError([&] { loadCapture(d); }, {json, "rest_frames[0]", "mask"});
  capture(R"([{"frame": 0, "cloud": "a.xyz"}, {"frame": 1, "cloud": "gone.ply"}])");
  expectInputError([&] { loadCapture(d); }, {json, "rest_frames[1] (rest frame 1)", "gone.ply", "does not exist"});
  capture(R"([{"frame": 0, "cloud": "empty.xyz"}])");
  expectInputError([&] { loadCapture(d); }, {json, "rest_frames[0] (rest frame 0)", "empty"});
}

TEST(CaptureIo, MalformedCapturesNameTheFileAndFrame) {
  TempDirectory dir("softfit-capture-");
  const std::string d = dir.path();
  const std::string json = d + "/capture.json";
  writeSmallClouds(d);
  writeFile(d + "/nan.xyz", "0 0 0\n1 nan 2\n");
  writeFile(d + "/nan.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
                            "property float z\nend_header\n0 inf 0\n");
  const auto capture = [&](const std::string& frames, int count = 2) {
    writeFile(json, "{\"frame_count\": " + std::to_string(count) + ", \"dt\": 0.1, \"frames\": [" + frames + "]}");
  };

  expectInputError([&] { loadCapture(d + "/nowhere"); }, {"nowhere", "does not exist"});
  expectInputError([&] { loadCapture(d); }, {json, "cannot open"});  // no capture.json yet
  writeFile(json, "{\"frame_count\": 2, \"dt\": 0.1, \"frames\": [");
  expectInputError([&] { loadCapture(d); }, {json, "invalid JSON"});
  writeFile(json, R"({"frame_count": 1, "frames": []})");
  expectInputError([&] { loadCapture(d); }, {json, "\"dt\""});
  writeFile(json, R"({"frame_count": 1, "dt": 0.1, "frames": {}})");
  expectInputError([&] { loadCapture(d); }, {json, "frames"});
  writeFile(json, R"({"frame_count": 1, "dt": 0.1, "frames": [], "fps": 30})");
  expectInputError([&] { loadCapture(d); }, {json, "fps"});
  writeFile(json, R"([1, 2])");
  expectInputError([&] { loadCapture(d); }, {json, "JSON object"});
  capture(R"({"frame": 0, "cloud": "a.xyz"})");
  expectInputError([&] { loadCapture(d); }, {json, "frame 1 is missing"});
  capture(R"({"frame": 0, "cloud": "a.xyz"})", 2000000000);  // issue 25: no table of frame_count entries
  expectInputError([&] { loadCapture(d); }, {json, "frame 1 is missing"});
  capture(R"({"frame": 0, "cloud": "a.xyz"}, {"frame": 0, "cloud": "a.xyz"})");
  expectInputError([&] { loadCapture(d); }, {json, "frame 0 is listed twice"});
  capture(R"({"frame": 0, "cloud": "a.xyz"}, {"frame": 2, "cloud": "a.xyz"})");
  expectInputError([&] { loadCapture(d); }, {json, "frames[1].frame = 2", "outside"});
  capture(R"({"frame": 0, "cloud": "a.xyz"}, {"frame": 1})");
  expectInputError([&] { loadCapture(d); }, {json, "frames[1] (frame 1)", "no data"});
  capture(R"({"frame": 0, "cloud": "a.xyz"}, {"frame": 1, "cloud": "a.xyz", "weight": -2})");
  expectInputError([&] { loadCapture(d); }, {json, "frames[1].weight"});
  capture(R"({"frame": 0, "cloud": "a.xyz"}, {"frame": 1, "cloud": "gone.ply"})");
  expectInputError([&] { loadCapture(d); }, {json, "frame 1", "gone.ply", "does not exist"});
  capture(R"({"frame": 0, "cloud": "a.xyz"}, {"frame": 1, "depth": [{"image": "d.png", "intrinsics": "k.json"}]})");
  expectInputError([&] { loadCapture(d); }, {json, "frame 1", "d.png", "does not exist"});
  capture(R"({"frame": 0, "cloud": "a.xyz"}, {"frame": 1, "cloud": "empty.xyz"})");
  expectInputError([&] { loadCapture(d); }, {json, "frame 1", "empty", "allow_empty_frames"});
  LoadCaptureOptions allow;
  allow.allowEmptyFrames = true;
  EXPECT_EQ(loadCapture(d, allow).frames[1].cloud.size(), 0);
  writeFile(json, R"({"frame_count": 2, "dt": 0.1, "allow_empty_frames": true,
                      "frames": [{"frame": 1, "cloud": "empty.xyz"}, {"frame": 0, "clouds": ["a.xyz", "a.xyz"]}]})");
  const Capture ok = loadCapture(d);
  EXPECT_EQ(ok.frames[0].cloud.size(), 4);  // both files merged
  EXPECT_EQ(ok.frames[1].cloud.size(), 0);
  capture(R"({"frame": 0, "cloud": "a.xyz"}, {"frame": 1, "cloud": "nan.xyz"})");
  expectInputError([&] { loadCapture(d); }, {json, "frame 1", "nan.xyz", "line 2", "non-finite"});
  capture(R"({"frame": 0, "cloud": "nan.ply"}, {"frame": 1, "cloud": "a.xyz"})");
  expectInputError([&] { loadCapture(d); }, {json, "frame 0", "nan.ply", "point 0", "non-finite"});
  writeFile(d + "/trunc.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                              "property float z\nend_header\n0 0 0\n");
  capture(R"({"frame": 0, "cloud": "a.xyz"}, {"frame": 1, "cloud": "trunc.ply"})");
  expectInputError([&] { loadCapture(d); }, {json, "frame 1", "trunc.ply", "truncated"});
  capture(R"({"frame": 0, "cloud": "a.xyz", "clouds": "a.xyz"}, {"frame": 1, "cloud": "a.xyz"})");
  expectInputError([&] { loadCapture(d); }, {json, "frames[0].clouds"});
}

}  // namespace
}  // namespace softfit

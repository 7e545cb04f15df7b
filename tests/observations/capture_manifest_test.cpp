// capture.json parsed to plain data: no cloud or depth file is opened, errors name
// capture.json and the field.
#include "observations/capture_manifest.h"

#include <gtest/gtest.h>

#include "forward/errors.h"

namespace softfit {
namespace {

TEST(CaptureManifest, ParsesWithoutReadingTheFiles) {
  const nlohmann::json doc = nlohmann::json::parse(R"({
    "frame_count": 2, "dt": 0.02, "allow_empty_frames": true,
    "frames": [{"frame": 1, "clouds": ["missing_a.ply", "missing_b.xyz"]},
               {"frame": 0, "weight": 0.5, "depth": [{"image": "d.png", "intrinsics": "c.json"}]}],
    "rest_frames": [{"frame": 0, "cloud": "rest.ply"}]})");
  const CaptureManifest m = parseCaptureManifest(doc, "dir/capture.json");
  EXPECT_EQ(m.frameCount, 2);
  EXPECT_EQ(m.dt, 0.02);
  EXPECT_TRUE(m.allowEmptyFrames);
  ASSERT_EQ(m.frames.size(), 2u);
  EXPECT_EQ(m.frames[0].frame, 1);
  EXPECT_EQ(m.frames[0].clouds, (std::vector<std::string>{"missing_a.ply", "missing_b.xyz"}));
  EXPECT_EQ(m.frames[1].weight, 0.5);
  ASSERT_EQ(m.frames[1].depth.size(), 1u);
  EXPECT_EQ(m.frames[1].depth[0].second, "c.json");
  EXPECT_EQ(m.frames[1].field, "frames[1]");
  ASSERT_EQ(m.restFrames.size(), 1u);
  EXPECT_EQ(m.restFrames[0].clouds[0], "rest.ply");
}

TEST(CaptureManifest, ErrorsNameTheFileAndField) {
  const auto message = [](const char* text) {
    try {
      parseCaptureManifest(nlohmann::json::parse(text), "dir/capture.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(R"({"frame_count": 1, "dt": 0.1, "frames": [{"frame": 3, "cloud": "a.ply"}]})"),
            "dir/capture.json: frames[0].frame = 3: outside [0, frame_count = 1)");
  EXPECT_EQ(message(R"({"frame_count": 2, "dt": 0.1, "frames": [{"frame": 0, "cloud": "a.ply"}]})"),
            "dir/capture.json: frame 1 is missing from \"frames\" (frame_count = 2)");
  EXPECT_EQ(message(R"({"frame_count": 1, "dt": 0, "frames": []})"),
            "dir/capture.json: dt = 0: must be a time step in [1e-09, 1000] seconds");
  for (const char* dt : {"1e-300", "1e300", "-0.1"})
    EXPECT_NE(message((std::string(R"({"frame_count": 1, "frames": [{"frame": 0, "cloud": "a.ply"}], "dt": )") + dt + "}").c_str())
                  .find("dir/capture.json: dt = "),
              std::string::npos)
        << dt;
  EXPECT_EQ(message(R"({"frame_count": 1, "dt": 0.1, "frames": [{"frame": 0, "cloud": "a.ply", "weight": -1}]})"),
            "dir/capture.json: frames[0].weight: must be finite and >= 0");
  EXPECT_EQ(message(R"({"frame_count": 1, "dt": 0.1, "frames": [{"frame": 0, "depth": []}]})"),
            "dir/capture.json: frames[0] (frame 0): no data (give \"cloud\", \"clouds\" or \"depth\")");
  EXPECT_EQ(message(R"({"frame_count": 1, "dt": 0.1, "fps": 30, "frames": [{"frame": 0, "cloud": "a.ply"}]})")
                .find("dir/capture.json: "),
            0u);
  EXPECT_EQ(message(R"({"frame_count": 1, "dt": 0.1, "frames": [{"frame": 0, "cloud": "a.ply"}],
                        "background_frames": [{"frame": 1, "cloud": "b.ply"}]})"),
            "dir/capture.json: background_frames[0].frame = 1: outside [0, background frame count = 1)");
  EXPECT_EQ(message("[1]"), "dir/capture.json: expected a JSON object with frame_count, dt and frames");
}

}  // namespace
}  // namespace softfit

// Sensor models by name or from a JSON file (observations/depth_sensor_json.h).
#include "observations/depth_sensor_json.h"

#include <gtest/gtest.h>

#include <fstream>

#include "forward/errors.h"
#include "forward/mesh/temp_directory.h"

namespace softfit {
namespace {

std::string writeFile(const TempDirectory& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}

std::string errorOf(const std::string& option) {
  try {
    depthSensorModelFromOption(option, "--sensor");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(DepthSensorJson, NamesGiveThePresets) {
  EXPECT_TRUE(depthSensorModelFromOption("ideal", "--sensor").isIdeal());
  const DepthSensorModel kinect = depthSensorModelFromOption("kinect", "--sensor");
  EXPECT_EQ(kinect.kind, DepthSensorKind::KinectV1);
  EXPECT_EQ(kinect.lateralSigmaPixels, DepthSensorModel::kinectV1().lateralSigmaPixels);
  EXPECT_NE(errorOf("kinect2").find("--sensor = \"kinect2\": unknown sensor"), std::string::npos) << errorOf("kinect2");
}

TEST(DepthSensorJson, FileOverridesItsPresetFieldByField) {
  TempDirectory dir("softfit-sensor-");
  const std::string path = writeFile(dir, "no_lateral.json",
                                     R"({"preset": "kinect", "description": "Kinect v1 without lateral noise",
                                         "lateral_sigma_pixels": 0, "lateral_angle_gain": 0.0,
                                         "max_incidence_degrees": 80})");
  const DepthSensorModel m = depthSensorModelFromOption(path, "--sensor");
  DepthSensorModel expected = DepthSensorModel::kinectV1();
  expected.lateralSigmaPixels = 0.0;
  expected.lateralAngleGain = 0.0;
  expected.maxIncidenceDegrees = 80.0;
  EXPECT_EQ(m.kind, DepthSensorKind::KinectV1);
  EXPECT_EQ(m.lateralSigmaPixels, 0.0);
  EXPECT_EQ(m.lateralAngleGain, 0.0);
  EXPECT_EQ(m.maxIncidenceDegrees, 80.0);
  EXPECT_EQ(m.axialSigmaConstant, expected.axialSigmaConstant);
  EXPECT_EQ(m.flyingPixelProbability, expected.flyingPixelProbability);
  EXPECT_EQ(m.disparityStepPixels, expected.disparityStepPixels);

  // Without a preset a file starts from the ideal sensor.
  const std::string axialOnly = writeFile(dir, "axial.json", R"({"axial_sigma_constant": 0.002})");
  const DepthSensorModel a = depthSensorModelFromOption(axialOnly, "--sensor");
  EXPECT_EQ(a.axialSigmaConstant, 0.002);
  EXPECT_FALSE(a.isIdeal());
  EXPECT_EQ(a.flyingPixelProbability, 0.0);
}

TEST(DepthSensorJson, WrittenModelReadsBackTheSame) {
  TempDirectory dir("softfit-sensor-");
  DepthSensorModel m = DepthSensorModel::kinectV1();
  m.dropoutProbability = 0.05;
  m.axialSigmaOffset = -0.1;
  const std::string path = writeFile(dir, "written.json", depthSensorModelJson(m).dump(2));
  EXPECT_EQ(depthSensorModelJson(readDepthSensorModel(path)), depthSensorModelJson(m));
  EXPECT_EQ(depthSensorModelJson(m)["preset"], "kinect");
  EXPECT_EQ(depthSensorModelJson(DepthSensorModel::ideal())["preset"], "ideal");
  EXPECT_EQ(depthSensorModelJson(m)["dropout_probability"], 0.05);
}

TEST(DepthSensorJson, BadFilesNameTheFileAndTheField) {
  TempDirectory dir("softfit-sensor-");
  const auto expectError = [&](const std::string& name, const std::string& text, const std::string& words) {
    const std::string path = writeFile(dir, name, text);
    const std::string message = errorOf(path);
    EXPECT_NE(message.find("--sensor: " + path), std::string::npos) << message;
    EXPECT_NE(message.find(words), std::string::npos) << message;
  };
  expectError("typo.json", R"({"preset": "kinect", "lateral_sigma_pixel": 0})", "lateral_sigma_pixel");
  expectError("type.json", R"({"dropout_probability": "high"})", "dropout_probability");
  expectError("range.json", R"({"flying_pixel_probability": 1.5})", "probabilities");
  expectError("angle.json", R"({"max_incidence_degrees": 0})", "incidence");
  expectError("preset.json", R"({"preset": "realsense"})", "preset = \"realsense\"");
  expectError("syntax.json", R"({"preset": )", "invalid JSON");
  expectError("array.json", R"([1, 2])", "JSON object");
  const std::string missing = dir.file("missing.json");
  EXPECT_NE(errorOf(missing).find(missing), std::string::npos) << errorOf(missing);
}

}  // namespace
}  // namespace softfit

// The SDF volume file format: round trip, trilinear interpolation, malformed files.
#include "grid/sdf_volume_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "forward/errors.h"
#include "grid/sdf_primitives.h"

namespace softfit {
namespace {

namespace fs = std::filesystem;

class SdfVolumeFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("softfit_sdf_volume_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void writeText(const std::string& name, const std::string& text) const { std::ofstream(path(name)) << text; }
  void writeDoubles(const std::string& name, const std::vector<double>& values) const {
    std::ofstream out(path(name), std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(8 * values.size()));
  }
  void expectError(const std::string& header, const std::string& fragment) const {
    try {
      readSdfVolume(path(header));
      FAIL() << "no error for " << header;
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(fragment), std::string::npos) << m;
    }
  }
  fs::path dir_;
};

TEST_F(SdfVolumeFile, RoundTripAndTrilinearInterpolation) {
  const SphereSdf sphere(Vec3(0.1, 0.2, -0.1), 0.6);
  const SdfVolume sampled = sampleSdf(sphere, 0.05);
  writeSdfVolume(path("sphere.json"), sampled);
  ASSERT_TRUE(fs::exists(path("sphere.f64")));
  const SdfVolume read = readSdfVolume(path("sphere.json"));
  EXPECT_EQ(read.dims, sampled.dims);
  EXPECT_EQ(read.values, sampled.values);  // bit-exact
  EXPECT_EQ(read.origin, sampled.origin);
  const VolumeSdf volume(read);
  EXPECT_NEAR(volume.value(sampled.samplePosition(3, 4, 5)), sampled.values[sampled.index(3, 4, 5)], 1e-15);
  EXPECT_NEAR(volume.value(Vec3(0.1, 0.2, -0.1)), -0.6, 0.01);
  EXPECT_NEAR(volume.value(Vec3(0.7, 0.2, -0.1)), 0.0, 0.01);
  EXPECT_GT(volume.value(Vec3(5, 5, 5)), 4.0);  // outside the sampled box: positive, growing

  // Trilinear interpolation reproduces a linear field exactly.
  SdfVolume linear;
  linear.dims = Eigen::Vector3i(3, 4, 5);
  linear.spacing = Vec3(0.5, 0.25, 1.0);
  linear.origin = Vec3(-1, 0, 2);
  for (int k = 0; k < 5; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) linear.values.push_back(Vec3(1, -2, 0.5).dot(linear.samplePosition(i, j, k)) - 0.3);
  const VolumeSdf field(linear);
  const Vec3 p(-0.3, 0.41, 4.2);
  EXPECT_NEAR(field.value(p), Vec3(1, -2, 0.5).dot(p) - 0.3, 1e-13);
}

TEST(BundledSdfVolume, IsTheDocumentedSampledCapsule) {
  const SdfVolume bundled = readSdfVolume(std::string(SOFTFIT_SOURCE_DIR) + "/data/sdf/capsule.json");
  const SdfVolume fresh = sampleSdf(CapsuleSdf(Vec3(-0.3, 0.25, 0.0), Vec3(0.3, 0.25, 0.0), 0.15), 0.05, 2);
  EXPECT_EQ(bundled.dims, fresh.dims);
  EXPECT_EQ(bundled.origin, fresh.origin);
  EXPECT_EQ(bundled.values, fresh.values);
}

TEST_F(SdfVolumeFile, Float32AndScalarSpacing) {
  writeText("f32.json", R"({"format": "softfit-sdf-volume", "dims": [2, 2, 2], "origin": [0, 0, 0],
                            "spacing": 1.0, "data": "f32.raw", "type": "float32"})");
  std::vector<float> values = {-1, 1, 1, 1, 1, 1, 1, 1};
  std::ofstream(path("f32.raw"), std::ios::binary).write(reinterpret_cast<const char*>(values.data()), 32);
  const SdfVolume v = readSdfVolume(path("f32.json"));
  EXPECT_EQ(v.values[0], -1.0);
  EXPECT_EQ(v.spacing, Vec3::Ones());
}

TEST_F(SdfVolumeFile, MalformedFilesNameTheFileAndProblem) {
  const std::string good = R"({"format": "softfit-sdf-volume", "dims": [2, 2, 2], "origin": [0, 0, 0],
                               "spacing": [1, 1, 1], "data": "v.f64"})";
  writeDoubles("v.f64", std::vector<double>(8, 1.0));
  writeText("good.json", good);
  EXPECT_NO_THROW(readSdfVolume(path("good.json")));

  expectError("missing.json", "missing.json");
  writeText("syntax.json", "{\"format\": ");
  expectError("syntax.json", "malformed JSON");
  writeText("nodims.json", R"({"format": "softfit-sdf-volume", "origin": [0, 0, 0], "spacing": 1, "data": "v.f64"})");
  expectError("nodims.json", "\"dims\"");
  writeText("baddims.json", R"({"format": "softfit-sdf-volume", "dims": [2, 1, 2], "origin": [0, 0, 0],
                                "spacing": 1, "data": "v.f64"})");
  expectError("baddims.json", "\"dims\"");
  writeText("spacing.json", R"({"format": "softfit-sdf-volume", "dims": [2, 2, 2], "origin": [0, 0, 0],
                                "spacing": -1, "data": "v.f64"})");
  expectError("spacing.json", "\"spacing\"");
  writeText("unknown.json", R"({"format": "softfit-sdf-volume", "dims": [2, 2, 2], "origin": [0, 0, 0],
                                "spacing": 1, "data": "v.f64", "endian": "big"})");
  expectError("unknown.json", "endian");
  writeText("format.json", R"({"format": "nrrd", "dims": [2, 2, 2], "origin": [0, 0, 0], "spacing": 1, "data": "v.f64"})");
  expectError("format.json", "\"format\"");
  writeText("size.json", R"({"format": "softfit-sdf-volume", "dims": [3, 2, 2], "origin": [0, 0, 0],
                             "spacing": 1, "data": "v.f64"})");
  expectError("size.json", "v.f64: has 64 bytes");
  writeText("noraw.json", R"({"format": "softfit-sdf-volume", "dims": [2, 2, 2], "origin": [0, 0, 0],
                              "spacing": 1, "data": "absent.f64"})");
  expectError("noraw.json", "absent.f64");
  std::vector<double> withNan(8, 1.0);
  withNan[5] = std::nan("");
  writeDoubles("nan.f64", withNan);
  writeText("nan.json", R"({"format": "softfit-sdf-volume", "dims": [2, 2, 2], "origin": [0, 0, 0],
                            "spacing": 1, "data": "nan.f64"})");
  expectError("nan.json", "sample 5 is not finite");
  writeDoubles("inside.f64", std::vector<double>(8, -0.5));  // entirely inside: the body extends past the box
  writeText("inside.json", R"({"format": "softfit-sdf-volume", "dims": [2, 2, 2], "origin": [0, 0, 0],
                               "spacing": 1, "data": "inside.f64"})");
  expectError("inside.json", "inside.f64: every sample is <= 0");
}

}  // namespace
}  // namespace softfit

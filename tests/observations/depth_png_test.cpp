// Depth PNG + intrinsics JSON -> point cloud: a PNG written with libpng directly, the
// module's own writer (render, quantize, write, read back), and malformed inputs.
#include "observations/depth_frame.h"

#include <gtest/gtest.h>
#include <png.h>

#include <cstdio>

#include "forward/mesh/temp_directory.h"
#include "observations/depth_renderer.h"
#include "observations_test_support.h"

namespace softfit {
namespace {

using testing::expectInputError;
using testing::writeFile;

// Minimal libpng writer (independent of the module's), bit depth 8 or 16, grey or RGB.
void writePngWithLibpng(const std::string& path, int width, int height, int bitDepth, int colorType,
                        const std::vector<std::uint16_t>& values) {
  FILE* fp = std::fopen(path.c_str(), "wb");
  ASSERT_NE(fp, nullptr);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) {
    ADD_FAILURE() << "libpng failed";
    png_destroy_write_struct(&png, &info);
    std::fclose(fp);
    return;
  }
  png_init_io(png, fp);
  png_set_IHDR(png, info, width, height, bitDepth, colorType, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  const int channels = colorType == PNG_COLOR_TYPE_RGB ? 3 : 1;
  const int bytesPerSample = bitDepth / 8;
  std::vector<unsigned char> row(static_cast<std::size_t>(width) * channels * bytesPerSample);
  for (int v = 0; v < height; ++v) {
    for (int u = 0; u < width; ++u)
      for (int c = 0; c < channels; ++c) {
        const std::uint16_t value = values[static_cast<std::size_t>(v) * width + u];
        unsigned char* p = &row[(static_cast<std::size_t>(u) * channels + c) * bytesPerSample];
        if (bytesPerSample == 2) {
          p[0] = static_cast<unsigned char>(value >> 8);
          p[1] = static_cast<unsigned char>(value & 0xff);
        } else {
          p[0] = static_cast<unsigned char>(value & 0xff);
        }
      }
    png_write_row(png, row.data());
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  std::fclose(fp);
}

TEST(DepthPng, LibpngImagePlusIntrinsicsGivesTheExpectedCloud) {
  TempDirectory dir("softfit-depth-");
  const int w = 5, h = 4;
  std::vector<std::uint16_t> values(w * h);
  for (int i = 0; i < w * h; ++i) values[i] = static_cast<std::uint16_t>(i % 7 == 0 ? 0 : 1000 + 977 * i);
  values[19] = 65535;
  writePngWithLibpng(dir.file("d.png"), w, h, 16, PNG_COLOR_TYPE_GRAY, values);
  writeFile(dir.file("k.json"), R"({"fx": 4.0, "fy": 5.0, "cx": 2.0, "cy": 1.5, "depth_scale": 0.0005,
      "width": 5, "height": 4, "camera_to_world": [[0, 0, 1, 1], [1, 0, 0, 2], [0, 1, 0, 3], [0, 0, 0, 1]]})");
  const DepthImage16 image = readDepthPng(dir.file("d.png"));
  ASSERT_EQ(image.width, w);
  ASSERT_EQ(image.height, h);
  EXPECT_EQ(image.values, values);
  const PointCloud cloud = readDepthFrame(dir.file("d.png"), dir.file("k.json"));
  int n = 0;
  for (int v = 0; v < h; ++v)
    for (int u = 0; u < w; ++u) {
      const std::uint16_t raw = values[v * w + u];
      if (raw == 0) continue;  // zero depth = no measurement
      const double d = raw * 0.0005;
      const Vec3 local(d * (u - 2.0) / 4.0, d * (v - 1.5) / 5.0, d);
      const Vec3 world = Vec3(local.z() + 1, local.x() + 2, local.y() + 3);  // R columns = (y, z, x) axes
      ASSERT_LT(n, cloud.size());
      EXPECT_NEAR((cloud.point(n) - world).norm(), 0.0, 1e-12) << u << ", " << v;
      ++n;
    }
  EXPECT_EQ(n, cloud.size());
  EXPECT_EQ(n, w * h - 3);  // pixels 0, 7, 14 are zero
  // Without a pose the camera frame is the world frame; without a size the PNG's is used.
  writeFile(dir.file("k2.json"), R"({"fx": 4.0, "fy": 5.0, "cx": 2.0, "cy": 1.5, "depth_scale": 0.001})");
  const PointCloud local = readDepthFrame(dir.file("d.png"), dir.file("k2.json"));
  EXPECT_NEAR(local.points(0, 2), values[1] * 0.001, 1e-15);
}

TEST(DepthPng, RenderedDepthSurvivesQuantizedRoundTrip) {
  TempDirectory dir("softfit-depth-");
  const auto s = testing::makeBoxSurface(Vec3(-0.5, -0.5, -0.5), Vec3(0.5, 0.5, 0.5), 3, 0.02, 3);
  DepthCamera dc;
  dc.camera = lookAtCamera(intrinsicsFromFieldOfView(48, 40, 45), Vec3(1.5, 1.2, 2), Vec3(0, 0, 0), Vec3(0, 1, 0));
  dc.depthScale = 1e-4;
  const DepthMap map = renderDepth(dc.camera, s.positions, s.triangles);
  writeDepthFrame(dir.file("f.png"), dir.file("f.json"), dc, map);
  const DepthImage16 image = readDepthPng(dir.file("f.png"));
  EXPECT_EQ(image.values, quantizeDepth(map, 1e-4).values);
  const PointCloud cloud = readDepthFrame(dir.file("f.png"), dir.file("f.json"));
  const PointCloud exact = depthMapToCloud(dc.camera, map);
  ASSERT_EQ(cloud.size(), exact.size());
  ASSERT_GT(cloud.size(), 300);
  const TriangleBvh bvh(s.positions, s.triangles);
  for (int i = 0; i < cloud.size(); ++i) {
    // Quantization moves a point along its ray by at most half a depth unit (scaled by the ray length).
    EXPECT_LT((cloud.point(i) - exact.point(i)).norm(), 0.5e-4 * 1.5);
    EXPECT_LT(std::sqrt(bvh.closestPoint(cloud.point(i)).distanceSquared), 1e-4);
  }
  // Depths outside the 16-bit range are refused.
  expectInputError([&] { quantizeDepth(map, 1e-6, "f.png"); }, {"f.png", "16-bit range"});
}

TEST(DepthPng, MalformedInputsNameTheFile) {
  TempDirectory dir("softfit-depth-");
  const std::string png = dir.file("d.png"), json = dir.file("k.json");
  writeFile(json, R"({"fx": 4.0, "fy": 5.0, "cx": 2.0, "cy": 1.5, "depth_scale": 0.001})");
  expectInputError([&] { readDepthFrame(dir.file("none.png"), json); }, {"none.png", "cannot open"});
  // 8-bit RGB is not a depth image.
  writePngWithLibpng(png, 3, 2, 8, PNG_COLOR_TYPE_RGB, std::vector<std::uint16_t>(6, 7));
  expectInputError([&] { readDepthPng(png); }, {png, "16-bit grayscale"});
  // Truncated and corrupt files.
  writePngWithLibpng(png, 30, 20, 16, PNG_COLOR_TYPE_GRAY, std::vector<std::uint16_t>(600, 1234));
  std::string bytes;
  {
    std::ifstream in(png, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  writeFile(png, bytes.substr(0, bytes.size() / 2));
  expectInputError([&] { readDepthPng(png); }, {png, "invalid PNG"});
  writeFile(png, "not a png at all");
  expectInputError([&] { readDepthPng(png); }, {png, "not a PNG"});
  // Issue 25: a header of 100000 x 100000 pixels (in a tiny file) ended in bad_alloc.
  const std::string huge = SOFTFIT_SOURCE_DIR "/tests/apps/hostile/count_png_100000.png";
  expectInputError([&] { readDepthPng(huge); }, {huge, "100000 x 100000 pixels"});
  // Intrinsics: missing depth_scale, bad focal length, size mismatch, missing file.
  writePngWithLibpng(png, 3, 2, 16, PNG_COLOR_TYPE_GRAY, std::vector<std::uint16_t>(6, 7));
  writeFile(json, R"({"fx": 4.0, "fy": 5.0, "cx": 2.0, "cy": 1.5})");
  expectInputError([&] { readDepthFrame(png, json); }, {json, "depth_scale"});
  writeFile(json, R"({"fx": 0, "fy": 5.0, "cx": 2.0, "cy": 1.5, "depth_scale": 0.001})");
  expectInputError([&] { readDepthFrame(png, json); }, {json, "fx"});
  writeFile(json, R"({"fx": 4, "fy": 5.0, "cx": 2.0, "cy": 1.5, "depth_scale": 0.001, "width": 4, "height": 2})");
  expectInputError([&] { readDepthFrame(png, json); }, {png, json, "3x2"});
  expectInputError([&] { readDepthFrame(png, dir.file("none.json")); }, {"none.json"});
  expectInputError([&] { writeDepthPng(png, DepthImage16{}); }, {png, "invalid depth image size"});
}

}  // namespace
}  // namespace softfit

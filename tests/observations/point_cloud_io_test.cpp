// PLY (ascii, binary little / big endian, float / double, extra properties and
// elements) and XYZ readers and writers: round trips and malformed files.
#include "observations/ply_io.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cmath>
#include <cstring>
#include <limits>

#include "forward/mesh/temp_directory.h"
#include "observations/point_cloud_file.h"
#include "observations/xyz_io.h"
#include "observations_test_support.h"

namespace softfit {
namespace {

using testing::expectInputError;
using testing::writeFile;

PointCloud randomCloud(int n) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(-10, 10);
  PointCloud c;
  c.points.resize(n, 3);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) c.points(i, k) = u(rng) * std::pow(10.0, static_cast<int>(u(rng)) / 3);
  c.points(0, 0) = 1e-300;  // extreme but finite values survive too
  c.points(0, 1) = -0.0;
  return c;
}

template <class T>
void appendBinary(std::string& out, T value, bool bigEndian = false) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // host is little-endian (x86-64 / arm64)
  if (bigEndian)
    for (int i = static_cast<int>(sizeof(T)) - 1; i >= 0; --i) out += static_cast<char>(bytes[i]);
  else
    for (std::size_t i = 0; i < sizeof(T); ++i) out += static_cast<char>(bytes[i]);
}

TEST(PointCloudIo, PlyAndXyzRoundTripsAreBitExact) {
  TempDirectory dir("softfit-ply-");
  const PointCloud c = randomCloud(257);
  for (const auto format : {CloudFileFormat::PlyAscii, CloudFileFormat::PlyBinary, CloudFileFormat::Xyz}) {
    const std::string path = dir.file("c" + std::to_string(static_cast<int>(format)) + cloudFileExtension(format));
    writePointCloud(path, c, format);
    const PointCloud back = readPointCloud(path);
    EXPECT_EQ(back.points, c.points) << path;
    // Deterministic bytes.
    const std::string again = dir.file("again" + cloudFileExtension(format));
    writePointCloud(again, c, format);
    std::ifstream a(path, std::ios::binary), b(again, std::ios::binary);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(a), {}), std::string(std::istreambuf_iterator<char>(b), {}));
  }
  // An empty cloud round-trips too.
  writePly(dir.file("empty.ply"), PointCloud{});
  EXPECT_EQ(readPly(dir.file("empty.ply")).size(), 0);
}

TEST(PointCloudIo, ReadsForeignPlyLayouts) {
  TempDirectory dir("softfit-ply-");
  // ASCII, float x y z among other properties, a face element after the vertices, CRLF header.
  writeFile(dir.file("a.ply"),
            "ply\r\nformat ascii 1.0\r\ncomment from a scanner\r\nelement vertex 2\r\nproperty float nx\r\n"
            "property float x\r\nproperty float y\r\nproperty float z\r\nproperty uchar red\r\n"
            "element face 1\r\nproperty list uchar int vertex_indices\r\nend_header\r\n"
            "0 1.5 -2 3 255\n1 4 5.25 +6 0\n3 0 1 1\n");
  PointCloud a = readPly(dir.file("a.ply"));
  ASSERT_EQ(a.size(), 2);
  EXPECT_EQ(a.point(0), Vec3(1.5, -2, 3));
  EXPECT_EQ(a.point(1), Vec3(4, 5.25, 6));
  // Binary little endian, a list element before the vertices, float coordinates.
  std::string bin = "ply\nformat binary_little_endian 1.0\nelement camera 1\nproperty list uchar float k\n"
                    "element vertex 2\nproperty float x\nproperty float y\nproperty float z\n"
                    "property int16 label\nend_header\n";
  appendBinary<std::uint8_t>(bin, 2);
  appendBinary<float>(bin, 7.f);
  appendBinary<float>(bin, 8.f);
  for (const float v : {0.5f, 1.25f, -3.0f}) appendBinary(bin, v);
  appendBinary<std::int16_t>(bin, -4);
  for (const float v : {1.0f, 2.0f, 0.1f}) appendBinary(bin, v);
  appendBinary<std::int16_t>(bin, 9);
  writeFile(dir.file("b.ply"), bin);
  PointCloud b = readPly(dir.file("b.ply"));
  ASSERT_EQ(b.size(), 2);
  EXPECT_EQ(b.point(0), Vec3(0.5, 1.25, -3.0));
  EXPECT_EQ(b.point(1), Vec3(1.0, 2.0, static_cast<double>(0.1f)));
  // Binary big endian doubles.
  std::string be = "ply\nformat binary_big_endian 1.0\nelement vertex 1\nproperty double x\nproperty double y\n"
                   "property double z\nend_header\n";
  for (const double v : {0.1, -2.5, 1e10}) appendBinary(be, v, true);
  writeFile(dir.file("be.ply"), be);
  EXPECT_EQ(readPly(dir.file("be.ply")).point(0), Vec3(0.1, -2.5, 1e10));
  // XYZ with comments, blank lines, tabs and extra columns.
  writeFile(dir.file("c.xyz"), "# scanner output\n\n1 2 3\n  4\t5   6 0 0 1  # normal\n-7e-3 +8 9.5\n");
  PointCloud c = readXyz(dir.file("c.xyz"));
  ASSERT_EQ(c.size(), 3);
  EXPECT_EQ(c.point(1), Vec3(4, 5, 6));
  EXPECT_EQ(c.point(2), Vec3(-7e-3, 8, 9.5));
}

TEST(PointCloudIo, MalformedFilesNameTheFileAndPlace) {
  TempDirectory dir("softfit-ply-");
  expectInputError([&] { readPly(dir.file("missing.ply")); }, {"missing.ply", "cannot open"});
  expectInputError([&] { readXyz(dir.file("missing.xyz")); }, {"missing.xyz", "cannot open"});
  expectInputError([&] { readPointCloud(dir.file("cloud.pcd")); }, {"cloud.pcd", "extension"});
  // Issue 25: a vertex count the data cannot hold ended in bad_alloc.
  writeFile(dir.file("huge.ply"), "ply\nformat ascii 1.0\nelement vertex 2000000000\nproperty float x\n"
                                  "property float y\nproperty float z\nend_header\n0 0 0\n");
  expectInputError([&] { readPly(dir.file("huge.ply")); }, {"huge.ply", "element vertex 2000000000"});
  writeFile(dir.file("huge_binary.ply"), "ply\nformat binary_little_endian 1.0\nelement vertex 100000\nproperty double x\n"
                                         "property double y\nproperty double z\nend_header\n0123456789abcdef");
  expectInputError([&] { readPly(dir.file("huge_binary.ply")); }, {"huge_binary.ply", "element vertex 100000"});
  const std::string p = dir.file("bad.ply");
  // Truncated binary data.
  PointCloud c = randomCloud(10);
  writePly(p, c, PlyFormat::BinaryLittleEndian);
  std::string bytes;
  {
    std::ifstream in(p, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  writeFile(p, bytes.substr(0, bytes.size() - 20));
  expectInputError([&] { readPly(p); }, {p, "truncated", "vertex 9 of 10"});
  // Truncated ASCII data and header.
  writeFile(p, "ply\nformat ascii 1.0\nelement vertex 3\nproperty double x\nproperty double y\nproperty double z\n"
               "end_header\n1 2 3\n4 5 6\n7 8\n");
  expectInputError([&] { readPly(p); }, {p, "truncated", "vertex 2 of 3"});
  writeFile(p, "ply\nformat ascii 1.0\nelement vertex 3\nproperty double x\n");
  expectInputError([&] { readPly(p); }, {p, "end_header"});
  writeFile(p, "");
  expectInputError([&] { readPly(p); }, {p, "empty"});
  writeFile(p, "solid stl\n");
  expectInputError([&] { readPly(p); }, {p, "not a PLY"});
  writeFile(p, "ply\nformat ascii 1.0\nelement vertex 1\nproperty double x\nproperty double y\nend_header\n1 2\n");
  expectInputError([&] { readPly(p); }, {p, "property \"z\""});
  writeFile(p, "ply\nformat ascii 1.0\nelement vertex 1\nproperty quad x\nend_header\n");
  expectInputError([&] { readPly(p); }, {p, "line 4", "quad"});
  writeFile(p, "ply\nformat ascii 1.0\nelement vertex 2\nproperty double x\nproperty double y\nproperty double z\n"
               "end_header\n1 2 3\n4 abc 6\n");
  expectInputError([&] { readPly(p); }, {p, "line 9", "abc"});
  // NaN coordinates.
  writeFile(p, "ply\nformat ascii 1.0\nelement vertex 2\nproperty double x\nproperty double y\nproperty double z\n"
               "end_header\n1 2 3\n4 nan 6\n");
  expectInputError([&] { readPly(p); }, {p, "point 1", "non-finite"});
  const std::string x = dir.file("bad.xyz");
  writeFile(x, "1 2 3\n4 5 nan\n");
  expectInputError([&] { readXyz(x); }, {x, "line 2", "non-finite"});
  writeFile(x, "1 2 3\n4 5\n");
  expectInputError([&] { readXyz(x); }, {x, "line 2", "expected \"x y z\""});
  writeFile(x, "1 2 3\n4 5 6,\n");
  expectInputError([&] { readXyz(x); }, {x, "line 2", "6,"});
  // Writers refuse non-finite points and unwritable paths.
  c.points(3, 2) = std::numeric_limits<double>::infinity();
  expectInputError([&] { writePly(dir.file("w.ply"), c); }, {"w.ply", "point 3"});
  expectInputError([&] { writeXyz(dir.file("w.xyz"), c); }, {"w.xyz", "point 3"});
  expectInputError([&] { writeXyz(dir.file("no/such/dir.xyz"), randomCloud(2)); }, {"no/such/dir.xyz"});
}

}  // namespace
}  // namespace softfit

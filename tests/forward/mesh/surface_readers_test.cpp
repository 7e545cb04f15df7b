#include <gtest/gtest.h>

#include "forward/mesh/obj_surface_reader.h"
#include "forward/mesh/stl_surface_reader.h"
#include "forward/mesh/surface_checks.h"
#include "forward/mesh/temp_directory.h"
#include "mesh_test_support.h"

namespace softfit {
namespace {

using testing::fixturePath;
using testing::readTextFile;
using testing::sharedDataPath;
using testing::writeTextFile;

TEST(ObjSurfaceReader, ReadsIndexFormsAndNegativeIndices) {
  const TriangleSurface s = readObjSurface(fixturePath("cube_tri.obj"));
  EXPECT_EQ(s.source, fixturePath("cube_tri.obj"));
  EXPECT_EQ(s.vertexCount(), 8);
  ASSERT_EQ(s.triangleCount(), 12);
  EXPECT_EQ(s.triangles.row(0), Eigen::RowVector3i(0, 3, 2));   // f 1 4 3
  EXPECT_EQ(s.triangles.row(3), Eigen::RowVector3i(4, 6, 7));   // f -4/1/1 -2/2/1 -1/3/1
  EXPECT_EQ(s.triangles.row(11), Eigen::RowVector3i(3, 4, 7));  // f -5/.. -4/.. -1/..
  EXPECT_NEAR(enclosedVolume(s), 1.0, 1e-15);
  EXPECT_NO_THROW(checkClosedSurface(s));
}

TEST(ObjSurfaceReader, FanTriangulatesPolygons) {
  const TriangleSurface s = readObjSurface(fixturePath("cube_quads.obj"));
  ASSERT_EQ(s.triangleCount(), 12);
  EXPECT_EQ(s.triangles.row(0), Eigen::RowVector3i(0, 3, 2));
  EXPECT_EQ(s.triangles.row(1), Eigen::RowVector3i(0, 2, 1));
  EXPECT_NEAR(enclosedVolume(s), 1.0, 1e-15);
}

TEST(ObjSurfaceReader, ReadsSharedBunny) {
  const std::string bunny = sharedDataPath("surface/bunny_res2.obj");
  if (bunny.empty()) GTEST_SKIP() << "shared data not available";
  const TriangleSurface s = readObjSurface(bunny);
  EXPECT_EQ(s.vertexCount(), 8131);
  EXPECT_EQ(s.triangleCount(), 16268);
  EXPECT_NO_THROW(checkClosedSurface(s));
}

TEST(ObjSurfaceReader, Errors) {
  TempDirectory dir;
  EXPECT_INPUT_ERROR(readObjSurface(dir.file("gone.obj")), "gone.obj", "cannot open");
  const auto expectError = [&](const std::string& name, const std::string& text, const std::string& what) {
    writeTextFile(dir.file(name), text);
    EXPECT_INPUT_ERROR(readObjSurface(dir.file(name)), name, what);
  };
  const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  expectError("range.obj", tri + "f 1 2 4\n", "range.obj:4: face vertex index 4 out of range (3 vertices");
  expectError("zero.obj", tri + "f 0 1 2\n", "face vertex index 0 out of range");
  expectError("negative.obj", tri + "f -1 -2 -4\n", "face vertex index -4 out of range");
  expectError("short.obj", tri + "f 1 2\n", "short.obj:4: face with 2 vertices");
  expectError("token.obj", tri + "f 1 x 3\n", "malformed face vertex 'x'");
  expectError("coord.obj", "v 0 0 zero\n", "coord.obj:1: expected a number");
  expectError("fewcoords.obj", "v 0 0\nv 1 0 0\n", "fewcoords.obj:1: vertex with fewer than 3 coordinates");
  expectError("nofaces.obj", tri, "no faces");
  expectError("nan.obj", "v 0 0 0\nv nan 0 0\n", "nan.obj:2: vertex coordinate is not finite");  // issue 25
}

TEST(StlSurfaceReader, AsciiAndBinaryWeldCorners) {
  for (const char* name : {"cube_ascii.stl", "cube_binary.stl"}) {
    const TriangleSurface s = readStlSurface(fixturePath(name));
    EXPECT_EQ(s.source, fixturePath(name));
    EXPECT_EQ(s.vertexCount(), 8) << name;
    EXPECT_EQ(s.triangleCount(), 12) << name;
    EXPECT_NEAR(enclosedVolume(s), 1.0, 1e-15) << name;
    EXPECT_NO_THROW(checkClosedSurface(s));
  }
}

TEST(StlSurfaceReader, Errors) {
  TempDirectory dir;
  EXPECT_INPUT_ERROR(readStlSurface(dir.file("gone.stl")), "gone.stl", "cannot open");
  const std::string binary = readTextFile(fixturePath("cube_binary.stl"));
  std::string truncated = binary.substr(0, binary.size() - 7);
  truncated.replace(0, 5, "xxxxx");  // header not 'solid'
  writeTextFile(dir.file("cut.stl"), truncated);
  EXPECT_INPUT_ERROR(readStlSurface(dir.file("cut.stl")), "cut.stl", "truncated");
  const std::string ascii = readTextFile(fixturePath("cube_ascii.stl"));
  writeTextFile(dir.file("cut_ascii.stl"), ascii.substr(0, ascii.size() / 2));
  EXPECT_INPUT_ERROR(readStlSurface(dir.file("cut_ascii.stl")), "cut_ascii.stl", "unexpected end of file");
  writeTextFile(dir.file("bad.stl"), "solid x\n  facet normal 0 0 1\n    outer loop\n      vertex 0 0\n");
  EXPECT_INPUT_ERROR(readStlSurface(dir.file("bad.stl")), "bad.stl:4");
  writeTextFile(dir.file("empty.stl"), "solid x\nendsolid x\n");
  EXPECT_INPUT_ERROR(readStlSurface(dir.file("empty.stl")), "empty.stl", "no triangles");
  // Issue 25: a binary STL whose header starts with "solid" and whose triangle count is
  // wrong got the ASCII parser's message; it names the binary count now.
  std::string solidBinary = binary;
  solidBinary.replace(0, 5, "solid");
  solidBinary[80] = static_cast<char>(solidBinary[80] + 1);  // one triangle more than the data holds
  writeTextFile(dir.file("count.stl"), solidBinary);
  EXPECT_INPUT_ERROR(readStlSurface(dir.file("count.stl")), "count.stl", "binary header", "triangles");
}

TEST(SurfaceChecks, CleanWeldsAndDropsDegenerateTriangles) {
  TriangleSurface s = readObjSurface(fixturePath("cube_tri.obj"));
  // Duplicate vertex 0 as vertex 8 and use it in triangle 0; add an unused vertex and a
  // degenerate triangle.
  s.vertices.conservativeResize(10, 3);
  s.vertices.row(8) = s.vertices.row(0);
  s.vertices.row(9) << 5, 5, 5;
  s.triangles(0, 0) = 8;
  s.triangles.conservativeResize(13, 3);
  s.triangles.row(12) << 1, 1, 2;
  const TriangleSurface c = cleanSurface(s);
  EXPECT_EQ(c.vertexCount(), 8);
  EXPECT_EQ(c.triangleCount(), 12);
  EXPECT_NEAR(enclosedVolume(c), 1.0, 1e-15);
  EXPECT_NO_THROW(checkClosedSurface(c));
}

TEST(SurfaceChecks, ReportsHolesAndNonManifoldEdges) {
  TriangleSurface s = readObjSurface(fixturePath("cube_tri.obj"));
  TriangleSurface open = s;
  open.triangles.conservativeResize(11, 3);
  EXPECT_INPUT_ERROR(checkClosedSurface(open), "cube_tri.obj", "3 boundary edge(s)");
  TriangleSurface doubled = s;
  doubled.triangles.conservativeResize(13, 3);
  doubled.triangles.row(12) = s.triangles.row(0);
  EXPECT_INPUT_ERROR(checkClosedSurface(doubled), "cube_tri.obj", "shared by more than two triangles");
}

}  // namespace
}  // namespace softfit

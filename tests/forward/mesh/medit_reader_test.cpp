#include "forward/mesh/medit_reader.h"

#include <gtest/gtest.h>

#include "forward/mesh/temp_directory.h"
#include "mesh_test_support.h"

namespace softfit {
namespace {

using testing::fixturePath;
using testing::sharedDataPath;
using testing::totalVolume;
using testing::writeTextFile;

const char* const kTwoTets =
    "MeshVersionFormatted 1\nDimension 3\nVertices\n5\n"
    "0 0 0 1\n1 0 0 1\n0 1 0 1\n0 0 1 1\n1 1 1 1\n"
    "Tetrahedra\n2\n1 2 3 4 0\n2 3 4 5 0\nEnd\n";

TEST(MeditReader, ReadsFixtureWithSkippedSectionsAndSplitKeywords) {
  const TetMesh m = readMeditMesh(fixturePath("cube12.mesh"));
  EXPECT_EQ(m.source, fixturePath("cube12.mesh"));
  EXPECT_EQ(m.vertexCount(), 9);
  EXPECT_EQ(m.tetCount(), 12);
  EXPECT_EQ(m.vertices.row(8), Eigen::RowVector3d(0.5, 0.5, 0.5));
  EXPECT_EQ(m.tets.row(0), Eigen::RowVector4i(0, 2, 3, 8));
  EXPECT_NEAR(totalVolume(m), 1.0, 1e-14);
}

TEST(MeditReader, ReadsSmallInlineMesh) {
  TempDirectory dir;
  writeTextFile(dir.file("two.mesh"), kTwoTets);
  const TetMesh m = readMeditMesh(dir.file("two.mesh"));
  EXPECT_EQ(m.vertexCount(), 5);
  EXPECT_EQ(m.tetCount(), 2);
  EXPECT_EQ(m.tets.row(1), Eigen::RowVector4i(1, 2, 3, 4));
}

TEST(MeditReader, ReadsSharedMeshes) {
  const std::string cube = sharedDataPath("tet/cube.mesh");
  const std::string bar = sharedDataPath("tet/liu_bar990.mesh");
  if (cube.empty() || bar.empty()) GTEST_SKIP() << "shared data not available";
  const TetMesh c = readMeditMesh(cube);
  EXPECT_EQ(c.vertexCount(), 3321);
  EXPECT_EQ(c.tetCount(), 16595);
  EXPECT_NEAR(totalVolume(c), 8.0, 1e-4);
  const TetMesh b = readMeditMesh(bar);  // has Triangles and Edges sections
  EXPECT_EQ(b.vertexCount(), 369);       // all file vertices kept, including 8 unused ones
  EXPECT_EQ(b.tetCount(), 990);
  EXPECT_NEAR(totalVolume(b), 3.0, 1e-9);
}

TEST(MeditReader, Errors) {
  TempDirectory dir;
  EXPECT_INPUT_ERROR(readMeditMesh(dir.file("missing.mesh")), "missing.mesh", "cannot open");

  const auto expectError = [&](const std::string& name, const std::string& text, const std::string& what) {
    writeTextFile(dir.file(name), text);
    EXPECT_INPUT_ERROR(readMeditMesh(dir.file(name)), name, what);
  };
  expectError("truncated.mesh",
              "MeshVersionFormatted 1\nDimension 3\nVertices\n5\n0 0 0 1\n1 0 0 1\n0 1 0 1\n0 0 1 1\n"
              "Tetrahedra\n1\n1 2 3 4 0\n",
              "truncated.mesh:9: expected a number for vertex 5 of 5");
  expectError("eof.mesh", "MeshVersionFormatted 1\nDimension 3\nVertices\n2\n0 0 0 1\n1 0",
              "unexpected end of file while reading vertex 2 of 2");
  std::string range = kTwoTets;
  range.replace(range.find("2 3 4 5"), 7, "2 3 4 6");
  expectError("range.mesh", range, "range.mesh:13: tetrahedron 2 of 2: vertex index 6 out of range 1..5");
  std::string inverted = kTwoTets;
  inverted.replace(inverted.find("2 3 4 5"), 7, "3 2 4 5");
  expectError("inverted.mesh", inverted, "tetrahedron 1 (0-based");
  expectError("inverted2.mesh", inverted, "inverted");
  std::string flat = kTwoTets;
  flat.replace(flat.find("1 1 1 1\n"), 8, "1 1 -1 1\n");  // in the plane x + y + z = 1 of its tet
  expectError("flat.mesh", flat, "degenerate");
  expectError("version.mesh", "MeshVersionFormatted 9\nDimension 3\n", "unsupported MEDIT version 9");
  expectError("dim.mesh", "MeshVersionFormatted 1\nDimension 2\n", "unsupported dimension 2");
  expectError("header.mesh", "Vertices 3\n", "expected 'MeshVersionFormatted'");
  expectError("notets.mesh", "MeshVersionFormatted 1\nDimension 3\nVertices 1\n0 0 0 0\nEnd\n", "no Tetrahedra section");
}

TEST(MeditReader, RefusesACountTheFileCannotHoldBeforeAllocating) {
  TempDirectory dir;
  // Issue 25: "Tetrahedra 2000000000" in a small file ended in bad_alloc.
  writeTextFile(dir.file("huge.mesh"),
                "MeshVersionFormatted 1\nDimension 3\nVertices\n4\n0 0 0 1\n1 0 0 1\n0 1 0 1\n0 0 1 1\n"
                "Tetrahedra\n2000000000\n1 2 3 4 0\nEnd\n");
  EXPECT_INPUT_ERROR(readMeditMesh(dir.file("huge.mesh")), "huge.mesh:10", "Tetrahedra count 2000000000",
                     "more than the file holds");
  writeTextFile(dir.file("verts.mesh"), "MeshVersionFormatted 1\nDimension 3\nVertices\n65537\n0 0 0 1\n");
  EXPECT_INPUT_ERROR(readMeditMesh(dir.file("verts.mesh")), "verts.mesh", "Vertices count 65537");
  // A count the file does hold is read as before.
  writeTextFile(dir.file("ok.mesh"), kTwoTets);
  EXPECT_EQ(readMeditMesh(dir.file("ok.mesh")).tetCount(), 2);
}

}  // namespace
}  // namespace softfit

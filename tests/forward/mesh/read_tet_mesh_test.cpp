#include "forward/mesh/read_tet_mesh.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "forward/mesh/temp_directory.h"
#include "mesh_test_support.h"

namespace softfit {
namespace {

using testing::fixturePath;
using testing::readTextFile;
using testing::sharedDataPath;
using testing::totalVolume;
using testing::writeTextFile;

TEST(ReadTetMesh, DispatchesOnExtension) {
  for (const char* name : {"cube12.mesh", "cube12_v2.msh", "cube12_v41.msh", "cube12.node", "cube12.ele"}) {
    const TetMesh m = readTetMesh(fixturePath(name));
    EXPECT_EQ(m.source, fixturePath(name));
    EXPECT_EQ(m.vertexCount(), 9) << name;
    EXPECT_EQ(m.tetCount(), 12) << name;
    EXPECT_NEAR(totalVolume(m), 1.0, 1e-14) << name;
  }
  if (!tetgenAvailable()) GTEST_SKIP() << "tetgen executable not available";
  for (const char* name : {"cube_tri.obj", "cube_binary.stl"}) {
    const TetMesh m = readTetMesh(fixturePath(name));
    EXPECT_NEAR(totalVolume(m), 1.0, 1e-12) << name;
  }
}

TEST(ReadTetMesh, ExtensionIsCaseInsensitive) {
  TempDirectory dir;
  std::filesystem::copy_file(fixturePath("cube12.mesh"), dir.file("CUBE.MESH"));
  EXPECT_EQ(readTetMesh(dir.file("CUBE.MESH")).tetCount(), 12);
}

TEST(ReadTetMesh, RemovesUnreferencedVertices) {
  const std::string bar = sharedDataPath("tet/liu_bar990.mesh");
  if (bar.empty()) GTEST_SKIP() << "shared data not available";
  const TetMesh m = readTetMesh(bar);  // the file has 369 vertices, 8 of them unused
  EXPECT_EQ(m.vertexCount(), 361);
  EXPECT_EQ(m.tetCount(), 990);
  EXPECT_NEAR(totalVolume(m), 3.0, 1e-9);
  EXPECT_LE(m.vertices.col(0).maxCoeff(), 1.5 + 1e-12);  // the unused bounding-box corners are gone
}

TEST(ReadTetMesh, SharedCube) {
  const std::string cube = sharedDataPath("tet/cube.mesh");
  if (cube.empty()) GTEST_SKIP() << "shared data not available";
  const TetMesh m = readTetMesh(cube);
  EXPECT_EQ(m.vertexCount(), 3321);
  EXPECT_EQ(m.tetCount(), 16595);
  EXPECT_NEAR(totalVolume(m), 8.0, 1e-4);
}

TEST(ReadTetMesh, MalformedInputsNameTheFile) {
  TempDirectory dir;
  for (const char* name : {"absent.mesh", "absent.msh", "absent.node", "absent.ele", "absent.obj", "absent.stl"})
    EXPECT_INPUT_ERROR(readTetMesh(dir.file(name)), name);
  EXPECT_INPUT_ERROR(readTetMesh(dir.file("mesh.vtk")), "mesh.vtk", "unknown mesh file extension '.vtk'");
  EXPECT_INPUT_ERROR(readTetMesh(dir.file("noextension")), "noextension", "unknown mesh file extension");

  const std::string medit = readTextFile(fixturePath("cube12.mesh"));
  const auto expectError = [&](const std::string& name, const std::string& text, const std::string& what) {
    writeTextFile(dir.file(name), text);
    EXPECT_INPUT_ERROR(readTetMesh(dir.file(name)), name, what);
  };
  std::string truncated = medit;
  truncated.replace(truncated.find("Vertices\n9"), 10, "Vertices\n10");
  expectError("truncated.mesh", truncated, "vertex 10 of 10");
  std::string range = medit;
  range.replace(range.find("1 3 4 9 1"), 9, "1 3 4 19 1");
  expectError("range.mesh", range, "out of range");
  std::string inverted = medit;
  inverted.replace(inverted.find("1 3 4 9 1"), 9, "1 4 3 9 1");
  expectError("inverted.mesh", inverted, "inverted");
  std::string flat = medit;
  flat.replace(flat.find("0.5 0.5 0.5 0"), 13, "0.5 0.5 0 0");
  expectError("flat.mesh", flat, "degenerate");
  std::string open = readTextFile(fixturePath("cube_quads.obj"));
  open = open.substr(0, open.rfind("f "));  // drop the last face
  expectError("open.obj", open, "not a closed manifold");
}

}  // namespace
}  // namespace softfit

#include "forward/mesh/gmsh_reader.h"

#include <gtest/gtest.h>

#include "forward/mesh/medit_reader.h"
#include "forward/mesh/temp_directory.h"
#include "mesh_test_support.h"

namespace softfit {
namespace {

using testing::fixturePath;
using testing::readTextFile;
using testing::writeTextFile;

void expectSameMesh(const TetMesh& a, const TetMesh& b) {
  ASSERT_EQ(a.vertexCount(), b.vertexCount());
  ASSERT_EQ(a.tetCount(), b.tetCount());
  EXPECT_EQ(a.vertices, b.vertices);
  EXPECT_EQ(a.tets, b.tets);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(GmshReader, ReadsVersion22WithSparseNodeTags) {
  const TetMesh m = readGmshMesh(fixturePath("cube12_v2.msh"));
  EXPECT_EQ(m.source, fixturePath("cube12_v2.msh"));
  expectSameMesh(m, readMeditMesh(fixturePath("cube12.mesh")));
}

TEST(GmshReader, ReadsVersion41WithEntityBlocks) {
  expectSameMesh(readGmshMesh(fixturePath("cube12_v41.msh")), readMeditMesh(fixturePath("cube12.mesh")));
}

TEST(GmshReader, ReadsFilesWrittenByGmsh) {
  // data/meshes/gmsh_box.geo meshed by Gmsh 4.8.4 and saved in both formats.
  const TetMesh v4 = readGmshMesh(fixturePath("gmsh_box_v41.msh"));
  const TetMesh v2 = readGmshMesh(fixturePath("gmsh_box_v22.msh"));
  EXPECT_EQ(v4.vertexCount(), 14);
  EXPECT_EQ(v4.tetCount(), 24);
  expectSameMesh(v4, v2);
  EXPECT_NEAR(testing::totalVolume(v4), 1.0, 1e-14);
  EXPECT_EQ(boundaryFaces(v4).rows(), 24);
}

TEST(GmshReader, Version41ParametricNodesAndUnorderedTags) {
  // A single tet whose nodes sit on a curve (parametric u) and a surface (u v).
  const std::string text =
      "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
      "$Nodes\n3 4 3 40\n1 5 1 1\n40\n0 0 0 0.0\n2 2 1 2\n7\n3\n1 0 0 0.5 0.5\n0 1 0 0.25 0.75\n"
      "3 1 0 1\n30\n0 0 1\n$EndNodes\n"
      "$Elements\n2 2 1 2\n2 2 2 1\n1 40 7 3 \n3 1 4 1\n2 40 7 3 30 \n$EndElements\n";
  TempDirectory dir;
  writeTextFile(dir.file("param.msh"), text);
  const TetMesh m = readGmshMesh(dir.file("param.msh"));
  ASSERT_EQ(m.vertexCount(), 4);
  EXPECT_EQ(m.tets.row(0), Eigen::RowVector4i(0, 1, 2, 3));
  EXPECT_EQ(m.vertices.row(2), Eigen::RowVector3d(0, 1, 0));
}

TEST(GmshReader, IgnoresOtherElementTypes) {
  TempDirectory dir;
  const std::string v2 = readTextFile(fixturePath("cube12_v2.msh"));
  writeTextFile(dir.file("mixed.msh"), replaced(v2, "4 2 2 1 10 30 40 90", "11 2 2 1 10 30 40 90 10 20 50 60 70 80"));
  EXPECT_EQ(readGmshMesh(dir.file("mixed.msh")).tetCount(), 11);
}

TEST(GmshReader, Errors) {
  TempDirectory dir;
  EXPECT_INPUT_ERROR(readGmshMesh(dir.file("missing.msh")), "missing.msh", "cannot open");
  const std::string v2 = readTextFile(fixturePath("cube12_v2.msh"));
  const std::string v4 = readTextFile(fixturePath("cube12_v41.msh"));
  const auto expectError = [&](const std::string& name, const std::string& text, const std::string& what) {
    writeTextFile(dir.file(name), text);
    EXPECT_INPUT_ERROR(readGmshMesh(dir.file(name)), name, what);
  };
  expectError("v40.msh", replaced(v4, "4.1 0 8", "4 0 8"), "unsupported Gmsh format version 4");
  expectError("v3.msh", replaced(v2, "2.2 0 8", "3.0 0 8"), "unsupported Gmsh format version 3.0");
  expectError("binary.msh", replaced(v2, "2.2 0 8", "2.2 1 8"), "binary");
  expectError("truncated_v2.msh", replaced(v2, "$Nodes\n9\n", "$Nodes\n10\n"),
              "truncated_v2.msh:20: expected an integer for a node tag, found '$EndNodes'");
  expectError("count_v4.msh", replaced(v4, "27 9 1 9", "27 10 1 10"), "announces 10 nodes but the blocks hold 9");
  expectError("tag_v2.msh", replaced(v2, "4 2 2 1 10 30 40 90", "4 2 2 1 10 30 25 90"),
              "tag_v2.msh:36: tetrahedron uses undefined node tag 25");
  expectError("inverted_v4.msh", replaced(v4, "33 1 3 4 9 ", "33 1 4 3 9 "), "inverted");
  expectError("flat_v4.msh", replaced(v4, "0.5 0.5 0.5\n$EndNodes", "0.5 0.5 0\n$EndNodes"), "degenerate");
  expectError("noelements.msh", v2.substr(0, v2.find("$Elements")), "no $Elements section");
  expectError("eof.msh", v4.substr(0, v4.size() - 60), "unexpected end of file");
  std::string onlyTet10 =
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n$Elements\n1\n1 11 0 1 1 1 1 1 1 1 1 1 1\n"
      "$EndElements\n";
  expectError("only_tet10.msh", onlyTet10, "10-node");
  std::string noTets = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n$Elements\n1\n1 15 0 1\n"
                       "$EndElements\n";
  expectError("no_tets.msh", noTets, "no 4-node tetrahedra");
}

TEST(GmshReader, RefusesANodeCountTheFileCannotHold) {
  TempDirectory dir;
  writeTextFile(dir.file("huge.msh"), "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n2000000000\n1 0 0 0\n$EndNodes\n");
  EXPECT_INPUT_ERROR(readGmshMesh(dir.file("huge.msh")), "huge.msh:5", "node count 2000000000");
}

}  // namespace
}  // namespace softfit

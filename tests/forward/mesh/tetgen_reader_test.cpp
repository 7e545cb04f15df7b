#include "forward/mesh/tetgen_reader.h"

#include <gtest/gtest.h>

#include "forward/mesh/medit_reader.h"
#include "forward/mesh/temp_directory.h"
#include "mesh_test_support.h"

namespace softfit {
namespace {

using testing::fixturePath;
using testing::readTextFile;
using testing::writeTextFile;

const char* const kNode0 = "5 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n4 1 1 1\n";
const char* const kEle0 = "2 4 0\n0 0 1 2 3\n1 1 2 3 4\n";

TEST(TetgenReader, ReadsOneBasedFilesWithAttributesMarkersAndComments) {
  const TetMesh fromNode = readTetgenMesh(fixturePath("cube12.node"));
  const TetMesh fromEle = readTetgenMesh(fixturePath("cube12.ele"));
  const TetMesh medit = readMeditMesh(fixturePath("cube12.mesh"));
  EXPECT_EQ(fromNode.source, fixturePath("cube12.node"));
  EXPECT_EQ(fromNode.vertices, medit.vertices);
  EXPECT_EQ(fromNode.tets, medit.tets);
  EXPECT_EQ(fromEle.tets, medit.tets);
}

TEST(TetgenReader, ReadsZeroBasedFiles) {
  TempDirectory dir;
  writeTextFile(dir.file("two.1.node"), kNode0);
  writeTextFile(dir.file("two.1.ele"), kEle0);
  const TetMesh m = readTetgenMesh(dir.file("two.1.ele"));
  EXPECT_EQ(m.vertexCount(), 5);
  EXPECT_EQ(m.tets.row(1), Eigen::RowVector4i(1, 2, 3, 4));
}

TEST(TetgenReader, Errors) {
  TempDirectory dir;
  EXPECT_INPUT_ERROR(readTetgenMesh(dir.file("none.node")), "none.node", "cannot open");
  writeTextFile(dir.file("lonely.node"), kNode0);
  EXPECT_INPUT_ERROR(readTetgenMesh(dir.file("lonely.node")), "lonely.ele", "cannot open");
  EXPECT_INPUT_ERROR(readTetgenMesh(dir.file("wrong.txt")), "wrong.txt");

  const auto expectError = [&](const std::string& name, const std::string& node, const std::string& ele,
                               const std::string& what) {
    writeTextFile(dir.file(name + ".node"), node);
    writeTextFile(dir.file(name + ".ele"), ele);
    EXPECT_INPUT_ERROR(readTetgenMesh(dir.file(name + ".node")), name, what);
  };
  expectError("truncated", "5 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n", kEle0,
              "truncated.node:5: unexpected end of file while reading point 5 of 5");
  expectError("range", kNode0, "2 4 0\n0 0 1 2 3\n1 1 2 5 3\n", "range.ele:3: tetrahedron 2 of 2: point index 5 out of range 0..4");
  expectError("gap", "3 3 0 0\n0 0 0 0\n2 1 0 0\n3 0 1 0\n", kEle0, "gap.node:3: point index 2 where 1 was expected");
  expectError("base", "1 3 0 0\n5 0 0 0\n", kEle0, "first point index must be 0 or 1");
  expectError("quadratic", kNode0, "1 10 0\n0 0 1 2 3 4 0 1 2 3 4\n", "unsupported 10-node tetrahedra");
  expectError("inverted", kNode0, "2 4 0\n0 0 1 2 3\n1 2 1 3 4\n", "inverted");
  expectError("flat", "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 1 1 0\n", "1 4 0\n0 0 1 2 3\n", "degenerate");
  expectError("extra", "4 3 0 0\n0 0 0 0\n1 1 0 0 7\n2 0 1 0\n3 0 0 1\n", "1 4 0\n0 0 1 2 3\n",
              "extra.node:3: point 2 of 4: unexpected extra values");
  expectError("dim", "4 2 0 0\n", kEle0, "unsupported dimension 2");
  expectError("trailing", kNode0, std::string(kEle0) + "2 0 1 2 4\n", "trailing.ele:4: unexpected data after the 2");
}

TEST(TetgenReader, RefusesCountsTheFileCannotHold) {
  TempDirectory dir;
  writeTextFile(dir.file("huge.node"), "2000000000 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n");
  writeTextFile(dir.file("huge.ele"), "1 4 0\n0 0 1 2 3\n");
  EXPECT_INPUT_ERROR(readTetgenMesh(dir.file("huge.node")), "huge.node:1", "point count 2000000000");
  writeTextFile(dir.file("tets.node"), "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n");
  writeTextFile(dir.file("tets.ele"), "2000000000 4 0\n0 0 1 2 3\n");
  EXPECT_INPUT_ERROR(readTetgenMesh(dir.file("tets.node")), "tets.ele:1", "tetrahedron count 2000000000");
}

}  // namespace
}  // namespace softfit

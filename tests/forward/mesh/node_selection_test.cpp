#include "forward/mesh/node_selection.h"

#include <gtest/gtest.h>

#include "forward/mesh/procedural_box.h"
#include "mesh_test_support.h"

namespace softfit {
namespace {

TEST(NodeSelection, FaceOfBoxIsInclusive) {
  const int nx = 4, ny = 3, nz = 2;
  const TetMesh m = makeBoxMesh(Vec3(0, 0, 0), Vec3(0.3, 0.7, 0.1), nx, ny, nz);
  const std::vector<int> left = nodesInBox(m, Vec3(0, 0, 0), Vec3(0, 0.7, 0.1));
  ASSERT_EQ(static_cast<int>(left.size()), (ny + 1) * (nz + 1));
  for (int v : left) EXPECT_EQ(v % (nx + 1), 0);
  EXPECT_TRUE(std::is_sorted(left.begin(), left.end()));
  // 0.3 is not exactly 4 * 0.075: the tolerance keeps the right face whole.
  EXPECT_EQ(nodesInBox(m, Vec3(0.3, -1, -1), Vec3(0.3, 1, 1)).size(), left.size());
  EXPECT_EQ(static_cast<int>(nodesInBox(m, Vec3(-1, -1, -1), Vec3(1, 1, 1)).size()), m.vertexCount());
  EXPECT_TRUE(nodesInBox(m, Vec3(0.01, 0.01, 0.01), Vec3(0.02, 0.02, 0.02)).empty());
}

TEST(NodeSelection, ToleranceIsSmallAndRelative) {
  TetMesh m = makeBoxMesh(Vec3::Zero(), Vec3::Ones() * 1000.0, 1, 1, 1);
  m.vertices(0, 0) = -1e-7;  // 1e-10 relative: still on the face x = 0
  EXPECT_EQ(nodesInBox(m, Vec3(0, 0, 0), Vec3(0, 1000, 1000)).size(), 4u);
  m.vertices(0, 0) = -1e-3;  // 1e-6 relative: off the face
  EXPECT_EQ(nodesInBox(m, Vec3(0, 0, 0), Vec3(0, 1000, 1000)).size(), 3u);
}

TEST(NodeSelection, RejectsInvertedBox) {
  const TetMesh m = makeBoxMesh(Vec3::Zero(), Vec3::Ones(), 1, 1, 1);
  EXPECT_INPUT_ERROR(nodesInBox(m, Vec3(1, 0, 0), Vec3(0, 1, 1)), "lower corner");
}

}  // namespace
}  // namespace softfit

#include "forward/mesh/procedural_box.h"

#include <gtest/gtest.h>

#include "mesh_test_support.h"

namespace softfit {
namespace {

TEST(ProceduralBox, CountsIndexingAndVolume) {
  const int nx = 4, ny = 3, nz = 2;
  const Vec3 lo(0.5, -1, 0), hi(2.5, 2, 0.4);
  const TetMesh m = makeBoxMesh(lo, hi, nx, ny, nz);
  EXPECT_EQ(m.vertexCount(), (nx + 1) * (ny + 1) * (nz + 1));
  EXPECT_EQ(m.tetCount(), 6 * nx * ny * nz);
  EXPECT_NO_THROW(validateTetMesh(m));
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        const Vec3 expected(lo.x() + (hi.x() - lo.x()) * i / nx, lo.y() + (hi.y() - lo.y()) * j / ny,
                            lo.z() + (hi.z() - lo.z()) * k / nz);
        const int v = i + (nx + 1) * (j + (ny + 1) * k);
        EXPECT_LT((m.vertices.row(v).transpose() - expected).norm(), 1e-14);
      }
  EXPECT_EQ(m.vertices.row(m.vertexCount() - 1).transpose(), hi);  // exact far corner
  double volume = 0.0;
  for (int t = 0; t < m.tetCount(); ++t) {
    const double v = signedTetVolume(m, t);
    EXPECT_NEAR(v, 2.0 * 3.0 * 0.4 / (6 * nx * ny * nz), 1e-14);
    volume += v;
  }
  EXPECT_NEAR(volume, 2.0 * 3.0 * 0.4, 1e-12);
}

TEST(ProceduralBox, NeighbouringCellsConform) {
  // Conforming <=> every interior face is shared by exactly two tets, so only the
  // 2 * 2 triangles per boundary square remain unmatched.
  const TetMesh m = makeBoxMesh(Vec3::Zero(), Vec3::Ones(), 3, 3, 3);
  EXPECT_EQ(boundaryFaces(m).rows(), 4 * 3 * (3 * 3));
}

TEST(ProceduralBox, RejectsBadArguments) {
  EXPECT_INPUT_ERROR(makeBoxMesh(Vec3::Zero(), Vec3::Ones(), 0, 1, 1), "cell counts");
  EXPECT_INPUT_ERROR(makeBoxMesh(Vec3::Zero(), Vec3::Ones(), 1, -2, 1), "cell counts");
  EXPECT_INPUT_ERROR(makeBoxMesh(Vec3::Zero(), Vec3(1, 0, 1), 1, 1, 1), "minCorner");
  EXPECT_INPUT_ERROR(makeBoxMesh(Vec3::Ones(), Vec3::Zero(), 1, 1, 1), "minCorner");
  // Issue 25: [2147483647, 1, 1] overflowed the node count (segfault); [400, 400, 400]
  // ended in bad_alloc. Both are refused before allocating, naming the field.
  EXPECT_INPUT_ERROR(checkBoxMeshSize(2147483647, 1, 1, "box.cells"), "box.cells", "too many to index");
  EXPECT_INPUT_ERROR(makeBoxMesh(Vec3::Zero(), Vec3::Ones(), 2147483647, 1, 1), "cell counts");
  EXPECT_INPUT_ERROR(checkBoxMeshSize(100000, 100000, 1, "box.cells"), "box.cells", "too many to index");
  EXPECT_INPUT_ERROR(checkBoxMeshSize(1000, 1000, 300, "box.cells"), "box.cells", "memory");
  EXPECT_NO_THROW(checkBoxMeshSize(40, 40, 40, "box.cells"));
}

}  // namespace
}  // namespace softfit

#include "grid/embedded_surface_mesh.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "forward/errors.h"
#include "grid/cut_cell_grid.h"
#include "grid/sdf_primitives.h"

namespace softfit {
namespace {

const Vec3 kCenter(0.013, 0.4, -0.02);

CutCellGrid sphereGrid() {
  LatticeOptions options;
  options.cellSize = 0.05;
  return CutCellGrid(sampleSdfLattice(SphereSdf(kCenter, 0.2), options));
}

// A latitude-longitude sphere of radius r (poles included), outward triangles.
TriangleSurface latLongSphere(double r, int rings, int segments) {
  TriangleSurface s;
  s.source = "sphere.obj";
  const int n = 2 + (rings - 1) * segments;
  s.vertices.resize(n, 3);
  s.vertices.row(0) = (kCenter + Vec3(0, r, 0)).transpose();
  s.vertices.row(n - 1) = (kCenter - Vec3(0, r, 0)).transpose();
  for (int i = 1; i < rings; ++i)
    for (int j = 0; j < segments; ++j) {
      const double theta = M_PI * i / rings, phi = 2 * M_PI * j / segments;
      s.vertices.row(1 + (i - 1) * segments + j) =
          (kCenter + r * Vec3(std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi))).transpose();
    }
  auto at = [&](int i, int j) { return 1 + (i - 1) * segments + (j % segments); };
  std::vector<Eigen::Vector3i> tris;
  for (int j = 0; j < segments; ++j) {
    tris.emplace_back(0, at(1, j + 1), at(1, j));
    tris.emplace_back(n - 1, at(rings - 1, j), at(rings - 1, j + 1));
    for (int i = 1; i + 1 < rings; ++i) {
      tris.emplace_back(at(i, j), at(i, j + 1), at(i + 1, j));
      tris.emplace_back(at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
    }
  }
  s.triangles.resize(static_cast<int>(tris.size()), 3);
  for (size_t t = 0; t < tris.size(); ++t) s.triangles.row(static_cast<int>(t)) = tris[t].transpose();
  return s;
}

TEST(EmbeddedSurfaceMesh, VerticesFollowTheGridsDisplacementField) {
  const CutCellGrid grid = sphereGrid();
  // Radius 0.21: some vertices lie outside every active cell and take the nearest one's
  // weights, extrapolated.
  const TriangleSurface mesh = latLongSphere(0.21, 24, 48);
  int outside = 0;
  for (int v = 0; v < mesh.vertexCount(); ++v) outside += grid.locate(mesh.vertices.row(v).transpose()) ? 0 : 1;
  EXPECT_GT(outside, 0);
  EXPECT_LT(outside, mesh.vertexCount());

  const EmbeddedSurface s = embedSurfaceMesh(grid, mesh);
  ASSERT_EQ(s.vertexCount(), mesh.vertexCount());
  EXPECT_EQ(s.triangles, mesh.triangles);
  EXPECT_FALSE(s.identity);
  for (int v = 0; v < s.vertexCount(); ++v) EXPECT_NEAR(s.weights.row(v).sum(), 1.0, 1e-12);
  // Trilinear weights (also extrapolated) reproduce affine fields: the rest positions and
  // any affine motion of the nodes.
  EXPECT_LT((s.positions(grid.restPositions()) - mesh.vertices).cwiseAbs().maxCoeff(), 1e-12);
  Mat3 A;
  A << 1.1, 0.2, -0.1, 0.05, 0.9, 0.3, -0.2, 0.1, 1.2;
  const Vec3 b(0.3, -0.2, 0.5);
  VecX x = grid.restPositions();
  for (Eigen::Index i = 0; i < x.size(); i += 3) x.segment<3>(i) = A * x.segment<3>(i) + b;
  const SurfacePoints moved = s.positions(x);
  for (int v = 0; v < s.vertexCount(); ++v) {
    const Vec3 expected = A * mesh.vertices.row(v).transpose() + b;
    EXPECT_LT((moved.row(v).transpose() - expected).norm(), 1e-12) << "vertex " << v;
  }
}

TEST(EmbeddedSurfaceMesh, AVertexFarFromTheObjectNamesTheFileAndVertex) {
  const CutCellGrid grid = sphereGrid();
  TriangleSurface mesh = latLongSphere(0.2, 6, 8);
  mesh.vertices.row(5) = (kCenter + Vec3(0.5, 0, 0)).transpose();
  try {
    embedSurfaceMesh(grid, mesh);
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("sphere.obj"), std::string::npos) << message;
    EXPECT_NE(message.find("vertex 6"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace softfit

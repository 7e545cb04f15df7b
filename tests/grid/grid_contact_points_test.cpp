#include "grid/grid_contact_points.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <cmath>
#include <cstdio>

#include "forward/mesh/procedural_box.h"
#include "forward/mesh/tet_mesh.h"
#include "grid/embedded_surface.h"
#include "grid/sdf_csg.h"
#include "grid/sdf_primitives.h"

namespace softfit {
namespace {

CutCellGrid makeGrid(const SignedDistanceField& sdf, double h, int refinement = 3) {
  LatticeOptions options;
  options.cellSize = h;
  options.refinement = refinement;
  return CutCellGrid(sampleSdfLattice(sdf, options));
}

double surfaceArea(const CutCellGrid& grid) {
  const EmbeddedSurface surface = extractEmbeddedSurface(grid);
  const SurfacePoints p = surface.positions(grid.restPositions());
  double area = 0.0;
  for (int t = 0; t < surface.triangleCount(); ++t) {
    const Vec3 a = p.row(surface.triangles(t, 0)), b = p.row(surface.triangles(t, 1)), c = p.row(surface.triangles(t, 2));
    area += 0.5 * (b - a).cross(c - a).norm();
  }
  return area;
}

TEST(GridContactPoints, CellSurfaceAreaOfPlanesAndZeroFaces) {
  // phi = x - 0.3: the plane x = 0.3 crosses the unit cell, area 1 (corners and refined).
  std::array<double, 8> corners;
  for (int c = 0; c < 8; ++c) corners[c] = (c == 1 || c == 2 || c == 5 || c == 6) ? 0.7 : -0.3;
  EXPECT_NEAR(cellSurfaceArea(CellSamples::fromCorners(corners)), 1.0, 1e-14);
  CellSamples refined;
  refined.subdivision = 3;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) refined.values.push_back(i / 3.0 - 0.3 + 0.2 * j / 3.0);  // tilted plane
  EXPECT_NEAR(cellSurfaceArea(refined), std::sqrt(1.0 + 0.04), 1e-12);
  // A zero face counts from the outside only: bottom 0 / top positive gives the face,
  // bottom 0 / top negative (the inside cell) nothing.
  std::array<double, 8> outside{0, 0, 1, 1, 0, 0, 1, 1}, inside{0, 0, -1, -1, 0, 0, -1, -1};
  EXPECT_NEAR(cellSurfaceArea(CellSamples::fromCorners(outside)), 1.0, 1e-14);
  EXPECT_EQ(cellSurfaceArea(CellSamples::fromCorners(inside)), 0.0);
}

// The areas are the rest surface split among the points: they sum to the area of the
// embedded surface (the same marching tets), for faces on nodes, off nodes and curved.
TEST(GridContactPoints, AreasSumToTheSurfaceArea) {
  const auto torus = std::make_shared<TorusSdf>(Vec3(0.01, 0.5, -0.02), Vec3(0.3, 1, 0), 0.4, 0.15);
  const auto sphere = std::make_shared<SphereSdf>(Vec3(0.4, 0.5, 0.0), 0.2);
  const UnionSdf both({torus, sphere});
  const BoxSdf onNodes(Vec3(0, 0.15, 0), Vec3(0.15, 0.15, 0.15));
  const BoxSdf offNodes(Vec3(0.02, 0.15, 0.013), Vec3(0.15, 0.15, 0.15));
  for (const SignedDistanceField* sdf : std::initializer_list<const SignedDistanceField*>{&both, &onNodes, &offNodes}) {
    const CutCellGrid grid = makeGrid(*sdf, 0.0375);
    double sum = 0.0;
    for (const ContactPoint& p : edgeCrossingContactPoints(grid)) {
      EXPECT_GE(p.area, 0.0);
      sum += p.area;
    }
    EXPECT_NEAR(sum, surfaceArea(grid), 1e-9 * sum) << sdf->name();
  }
}

// A box whose bottom lies on the nodes, without refinement (with it, the zero samples
// inside the edges are points too): an interior bottom node stands for h^2 of the face.
TEST(GridContactPoints, InteriorBottomNodesStandForOneCellFace) {
  const double h = 0.0375;
  const CutCellGrid grid = makeGrid(BoxSdf(Vec3(0, 0.15, 0), Vec3(0.15, 0.15, 0.15)), h, 1);
  int interior = 0;
  for (const ContactPoint& p : edgeCrossingContactPoints(grid)) {
    if (p.nodes.size() != 1) continue;
    const Vec3 X = grid.restPositions().segment<3>(3 * p.nodes[0]);
    if (std::abs(X.y()) > 1e-12 || std::abs(X.x()) > 0.14 || std::abs(X.z()) > 0.14) continue;
    EXPECT_NEAR(p.area, h * h, 1e-12);
    ++interior;
  }
  EXPECT_EQ(interior, 49);
}

// The ground's push on a 0.3 m box resting on the floor (sum of A_p softmin(d_p) /
// softmin(0), in m^2), with its faces on the lattice nodes and shifted by 2 cm.
double restingPush(const std::vector<ContactPoint>& points, const VecX& rest) {
  const double alpha = 100.0;
  double push = 0.0;
  for (const ContactPoint& p : points) {
    double y = 0.0;
    for (size_t a = 0; a < p.nodes.size(); ++a) y += p.weights[a] * rest[3 * p.nodes[a] + 1];
    push += p.area * softminZero(y, alpha) / softminZero(0.0, alpha);
  }
  return push;
}

// Surface-vertex points (the scenes' contact) sum to the surface area; with area weights
// the push on a resting box depends on how the box falls on the lattice by less than 8%
// (the discretized bottom edges differ by a sub-cell chamfer), for both point sets.
TEST(GridContactPoints, SurfacePointsMakeTheRestingPushAlmostLatticeIndependent) {
  const double h = 0.0375;
  const CutCellGrid onNodes = makeGrid(BoxSdf(Vec3(0, 0.15, 0), Vec3(0.15, 0.15, 0.15)), h);
  const CutCellGrid shifted = makeGrid(BoxSdf(Vec3(0.02, 0.15, 0.02), Vec3(0.15, 0.15, 0.15)), h);
  double push[2], edgePush[2];
  int i = 0;
  for (const CutCellGrid* grid : {&onNodes, &shifted}) {
    const EmbeddedSurface surface = extractEmbeddedSurface(*grid, SurfaceResolution::Samples);
    const std::vector<ContactPoint> points = surfaceContactPoints(surface, grid->restPositions());
    double sum = 0.0;
    for (const ContactPoint& p : points) sum += p.area;
    EXPECT_NEAR(sum, surfaceArea(*grid), 1e-12 * sum);
    push[i] = restingPush(points, grid->restPositions());
    edgePush[i] = restingPush(edgeCrossingContactPoints(*grid), grid->restPositions());
    ++i;
  }
  // The bottom face (0.09 m^2) plus the side faces' lowest samples.
  EXPECT_GT(push[0], 0.09);
  EXPECT_LT(push[0], 0.12);
  std::printf("resting push: surface points %.5f / %.5f, lattice-edge points %.5f / %.5f m^2\n", push[0], push[1],
              edgePush[0], edgePush[1]);
  // Measured: surface 0.1054 / 0.0986 (-6.4%), lattice edges 0.1097 / 0.1179 (+7.5%).
  EXPECT_LT(std::abs(push[1] / push[0] - 1.0), 0.08);
  EXPECT_LT(std::abs(edgePush[1] / edgePush[0] - 1.0), 0.1);
}

// Tet meshes: the boundary vertices with one third of their triangles' areas.
TEST(GridContactPoints, TetBoundaryVerticesCarryThirdsOfTheirTriangles) {
  const TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(0.4, 0.2, 0.3), 4, 2, 3);
  const EmbeddedSurface surface = identityEmbedding(mesh.vertexCount(), boundaryFaces(mesh));
  const std::vector<ContactPoint> points = surfaceContactPoints(surface, mesh.restPositions());
  double sum = 0.0;
  int previous = -1;
  for (const ContactPoint& p : points) {
    ASSERT_EQ(p.nodes.size(), 1u);
    EXPECT_EQ(p.weights[0], 1.0);
    EXPECT_GT(p.nodes[0], previous);  // sorted, each node once
    previous = p.nodes[0];
    sum += p.area;
  }
  EXPECT_NEAR(sum, 2.0 * (0.4 * 0.2 + 0.2 * 0.3 + 0.3 * 0.4), 1e-14);
  EXPECT_EQ(static_cast<int>(points.size()), 5 * 3 * 4 - 3 * 1 * 2);  // all but the interior nodes
}

}  // namespace
}  // namespace softfit

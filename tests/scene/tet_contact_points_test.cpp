#include "scene/tet_contact_points.h"

#include <gtest/gtest.h>

#include "forward/mesh/procedural_box.h"
#include "forward/mesh/tet_mesh.h"

namespace softfit {
namespace {

// Boundary vertices of a box mesh with one third of their triangles' areas: the areas sum
// to the box's surface, and a corner of a 1-cell-thick box carries less than a face centre.
TEST(TetContactPoints, AreasAreThirdsOfTheBoundaryTriangles) {
  const TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(0.4, 0.2, 0.3), 4, 2, 3);
  const TriangleMatrix surface = boundaryFaces(mesh);
  const std::vector<ContactPoint> points = surfaceVertexContactPoints(mesh.restPositions(), surface);
  double sum = 0.0;
  int previous = -1;
  for (const ContactPoint& p : points) {
    ASSERT_EQ(p.nodes.size(), 1u);
    EXPECT_GT(p.nodes[0], previous);  // sorted, each node once
    previous = p.nodes[0];
    EXPECT_GT(p.area, 0.0);
    sum += p.area;
  }
  EXPECT_NEAR(sum, 2.0 * (0.4 * 0.2 + 0.2 * 0.3 + 0.3 * 0.4), 1e-14);
  // Every node but the (4-1)(2-1)(3-1) interior ones is a contact point.
  EXPECT_EQ(static_cast<int>(points.size()), 5 * 3 * 4 - 3 * 1 * 2);
  // A vertex in the middle of the bottom face (y = 0) stands for one 0.1 x 0.1 cell.
  for (const ContactPoint& p : points) {
    const Vec3 X = mesh.restPositions().segment<3>(3 * p.nodes[0]);
    if (X.y() == 0.0 && X.x() > 0.05 && X.x() < 0.35 && X.z() > 0.05 && X.z() < 0.25) EXPECT_NEAR(p.area, 0.01, 1e-15);
  }
}

}  // namespace
}  // namespace softfit

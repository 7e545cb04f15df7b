#include "forward/mesh/tet_mesh.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>

#include "forward/mesh/mesh_compaction.h"
#include "forward/mesh/medit_reader.h"
#include "forward/mesh/procedural_box.h"
#include "forward/mesh/surface_tetrahedralizer.h"
#include "forward/mesh/obj_surface_reader.h"
#include "mesh_test_support.h"

namespace softfit {
namespace {

using testing::fixturePath;
using testing::sharedDataPath;

TetMesh unitTet() {
  TetMesh m;
  m.source = "unit_tet";
  m.vertices.resize(4, 3);
  m.vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  m.tets.resize(1, 4);
  m.tets << 0, 1, 2, 3;
  return m;
}

TEST(TetMesh, RestPositionsFlattenRows) {
  const TetMesh m = unitTet();
  const VecX x = m.restPositions();
  ASSERT_EQ(x.size(), 12);
  EXPECT_EQ(x[3], 1.0);
  EXPECT_EQ(x[7], 1.0);
  EXPECT_EQ(x[11], 1.0);
}

TEST(TetMesh, SignedVolumeOfUnitTet) {
  TetMesh m = unitTet();
  EXPECT_DOUBLE_EQ(signedTetVolume(m, 0), 1.0 / 6.0);
  m.tets << 0, 2, 1, 3;
  EXPECT_DOUBLE_EQ(signedTetVolume(m, 0), -1.0 / 6.0);
}

TEST(TetMesh, ValidateAcceptsGoodMesh) { EXPECT_NO_THROW(validateTetMesh(unitTet())); }

TEST(TetMesh, ValidateRejectsEachProblemNamingSourceAndIndex) {
  TetMesh empty;
  empty.source = "empty.mesh";
  EXPECT_INPUT_ERROR(validateTetMesh(empty), "empty.mesh", "no vertices");
  TetMesh noTets = unitTet();
  noTets.tets.resize(0, 4);
  EXPECT_INPUT_ERROR(validateTetMesh(noTets), "unit_tet", "no tetrahedra");

  TetMesh range = unitTet();
  range.tets(0, 2) = 7;
  EXPECT_INPUT_ERROR(validateTetMesh(range), "unit_tet", "tetrahedron 0", "out of range");
  range.tets(0, 2) = -1;
  EXPECT_INPUT_ERROR(validateTetMesh(range), "out of range");

  TetMesh repeated = unitTet();
  repeated.tets(0, 3) = 1;
  EXPECT_INPUT_ERROR(validateTetMesh(repeated), "tetrahedron 0", "repeats vertex 1");

  TetMesh nan = unitTet();
  nan.vertices(2, 1) = std::nan("");
  EXPECT_INPUT_ERROR(validateTetMesh(nan), "vertex 2", "non-finite");

  TetMesh huge = unitTet();  // was "degenerate (zero volume: signed volume -nan, longest edge inf)"
  huge.vertices(3, 0) = 1e300;
  EXPECT_INPUT_ERROR(validateTetMesh(huge), "unit_tet", "vertex 3", "coordinate too large");

  TetMesh inverted = unitTet();
  inverted.tets << 0, 2, 1, 3;
  EXPECT_INPUT_ERROR(validateTetMesh(inverted), "unit_tet", "tetrahedron 0", "inverted");

  TetMesh flat = unitTet();
  flat.vertices.row(3) << 0.3, 0.3, 0.0;
  EXPECT_INPUT_ERROR(validateTetMesh(flat), "unit_tet", "tetrahedron 0", "degenerate");
  flat.vertices.row(3) << 0.3, 0.3, 1e-14;  // numerically flat sliver
  EXPECT_INPUT_ERROR(validateTetMesh(flat), "degenerate");
}

TEST(TetMesh, ValidateAcceptsTinyWellShapedTets) {
  TetMesh m = unitTet();
  m.vertices *= 1e-7;  // |V| ~ 1e-22: scale-free test keeps it
  EXPECT_NO_THROW(validateTetMesh(m));
}

TEST(TetElements, UnitTetGradients) {
  const auto elements = buildTetElements(unitTet());
  ASSERT_EQ(elements.size(), 1u);
  const Element& e = elements[0];
  ASSERT_EQ(e.quadrature.size(), 1u);
  EXPECT_DOUBLE_EQ(e.quadrature[0].weight, 1.0 / 6.0);
  Eigen::Matrix<double, 4, 3> expected;
  expected << -1, -1, -1, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  EXPECT_TRUE(e.quadrature[0].dNdX.isApprox(expected));
}

TEST(TetElements, BoxWeightsSumToVolumeAndGradientsSumToZero) {
  const TetMesh box = makeBoxMesh(Vec3(-1, 0, 2), Vec3(2, 0.5, 3.5), 3, 2, 4);
  const auto elements = buildTetElements(box);
  ASSERT_EQ(static_cast<int>(elements.size()), box.tetCount());
  double volume = 0.0;
  for (const Element& e : elements) {
    volume += e.restVolume();
    EXPECT_GT(e.quadrature[0].weight, 0.0);
    EXPECT_LT(e.quadrature[0].dNdX.colwise().sum().norm(), 1e-12);
  }
  EXPECT_NEAR(volume, 3.0 * 0.5 * 1.5, 1e-12);
}

TEST(TetElements, IdentityAtRest) {
  const TetMesh box = makeBoxMesh(Vec3(0, 0, 0), Vec3(1, 2, 3), 2, 2, 2);
  const VecX x = box.restPositions();
  for (const Element& e : buildTetElements(box))
    EXPECT_LT((deformationGradient(e, e.quadrature[0], x) - Mat3::Identity()).norm(), 1e-12);
}

void expectAffineReproduced(const TetMesh& mesh) {
  Mat3 A;
  A << 1.2, 0.3, -0.1, 0.05, 0.9, 0.2, -0.3, 0.1, 1.4;
  const Vec3 b(0.5, -2.0, 3.0);
  VecX x(3 * mesh.vertexCount());
  for (int i = 0; i < mesh.vertexCount(); ++i) x.segment<3>(3 * i) = A * mesh.vertices.row(i).transpose() + b;
  double worst = 0.0;
  for (const Element& e : buildTetElements(mesh))
    worst = std::max(worst, (deformationGradient(e, e.quadrature[0], x) - A).norm());
  EXPECT_LT(worst, 1e-8) << mesh.source;
}

TEST(TetElements, AffineMapReproducedOnUnstructuredMeshes) {
  expectAffineReproduced(readMeditMesh(fixturePath("cube12.mesh")));
  const std::string bar = sharedDataPath("tet/liu_bar990.mesh");
  if (!bar.empty()) expectAffineReproduced(readMeditMesh(bar));
  if (tetgenAvailable()) {
    SurfaceMeshingOptions options;
    options.maxTetVolume = 0.01;
    expectAffineReproduced(tetrahedralizeSurface(readObjSurface(fixturePath("cube_tri.obj")), options));
  }
}

TEST(TetElements, RejectsInvalidMesh) {
  TetMesh inverted = unitTet();
  inverted.tets << 0, 2, 1, 3;
  EXPECT_INPUT_ERROR(buildTetElements(inverted), "inverted");
}

TEST(BoundaryFaces, SingleTetHasFourOutwardFaces) {
  const TetMesh m = unitTet();
  const auto faces = boundaryFaces(m);
  ASSERT_EQ(faces.rows(), 4);
  const Vec3 centroid(0.25, 0.25, 0.25);
  for (int f = 0; f < 4; ++f) {
    const Vec3 a = m.vertices.row(faces(f, 0)).transpose();
    const Vec3 b = m.vertices.row(faces(f, 1)).transpose();
    const Vec3 c = m.vertices.row(faces(f, 2)).transpose();
    EXPECT_GT((b - a).cross(c - a).dot((a + b + c) / 3.0 - centroid), 0.0);
  }
}

TEST(BoundaryFaces, BoxCountsOrientationAndClosure) {
  const int nx = 3, ny = 2, nz = 4;
  const Vec3 lo(-1, 0, 2), hi(2, 0.5, 3.5);
  const TetMesh box = makeBoxMesh(lo, hi, nx, ny, nz);
  const auto faces = boundaryFaces(box);
  EXPECT_EQ(faces.rows(), 4 * (nx * ny + ny * nz + nx * nz));
  const Vec3 center = 0.5 * (lo + hi);
  Vec3 normalSum = Vec3::Zero();
  double sixVolume = 0.0;
  for (int f = 0; f < faces.rows(); ++f) {
    const Vec3 a = box.vertices.row(faces(f, 0)).transpose();
    const Vec3 b = box.vertices.row(faces(f, 1)).transpose();
    const Vec3 c = box.vertices.row(faces(f, 2)).transpose();
    const Vec3 n = (b - a).cross(c - a);
    normalSum += n;
    sixVolume += a.dot(b.cross(c));
    EXPECT_GT(n.dot((a + b + c) / 3.0 - center), 0.0) << "face " << f << " points inward";
  }
  EXPECT_LT(normalSum.norm(), 1e-12);
  EXPECT_NEAR(sixVolume / 6.0, 3.0 * 0.5 * 1.5, 1e-12);
}

TEST(BoundaryFaces, DeterministicAndMatchesFileSurface) {
  const TetMesh box = makeBoxMesh(Vec3::Zero(), Vec3::Ones(), 2, 2, 2);
  EXPECT_EQ(boundaryFaces(box), boundaryFaces(box));
  const std::string bar = sharedDataPath("tet/liu_bar990.mesh");
  if (bar.empty()) GTEST_SKIP() << "shared data not available";
  EXPECT_EQ(boundaryFaces(readMeditMesh(bar)).rows(), 700);  // the file's Triangles section
}

TEST(MeshCompaction, RemovesUnreferencedVerticesKeepingOrder) {
  TetMesh m = unitTet();
  m.vertices.conservativeResize(6, 3);
  m.vertices.row(4) = m.vertices.row(0);
  m.vertices.row(5) << 9, 9, 9;
  m.vertices.row(0) << 5, 5, 5;  // vertex 0 now unused; vertex 4 is the old origin
  m.tets << 4, 1, 2, 3;
  std::vector<int> map;
  const TetMesh c = removeUnreferencedVertices(m, &map);
  ASSERT_EQ(c.vertexCount(), 4);
  EXPECT_EQ(map, (std::vector<int>{-1, 0, 1, 2, 3, -1}));
  EXPECT_EQ(c.tets.row(0), (Eigen::RowVector4i(3, 0, 1, 2)));
  EXPECT_DOUBLE_EQ(signedTetVolume(c, 0), 1.0 / 6.0);
}

}  // namespace
}  // namespace softfit

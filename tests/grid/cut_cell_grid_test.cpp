// Grid construction: thesis conventions, active cells / nodes, elements (mass from the
// inside volume), point location, contact points and the embedded surface.
#include "grid/cut_cell_grid.h"

#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include "forward/energies/lumped_mass.h"
#include "forward/energies/physical_model.h"
#include "forward/errors.h"
#include "forward/mesh/triangle_surface.h"
#include "grid/embedded_surface.h"
#include "grid/grid_contact_points.h"
#include "grid/mesh_sdf.h"
#include "grid/sdf_csg.h"
#include "grid/sdf_primitives.h"
#include "grid/trilinear_hex.h"

namespace softfit {
namespace {

CutCellGrid makeGrid(const SignedDistanceField& sdf, double h, double snap = 0.01) {
  LatticeOptions options;
  options.cellSize = h;
  options.snapFraction = snap;
  return CutCellGrid(sampleSdfLattice(sdf, options));
}

TEST(CutCellGrid, ThesisConventions) {
  // Thesis cuboid at r = 5: centre (0, 1, 0), half-extents (1.29, 0.4, 0.8), h = 1/5.
  const BoxSdf cuboid(Vec3(0, 1, 0), Vec3(1.29, 0.4, 0.8));
  const double h = 0.2;
  const CutCellGrid grid = makeGrid(cuboid, h);
  std::printf("thesis cuboid r=5: %d active nodes, %d active cells (%d cut)\n", grid.nodeCount(), grid.cellCount(),
              grid.partialCellCount());
  const SdfLattice& lattice = grid.lattice();
  // Nodes at integer multiples of h.
  for (int n = 0; n < grid.nodeCount(); ++n)
    for (int a = 0; a < 3; ++a) {
      const double u = grid.restPositions()[3 * n + a] / h;
      EXPECT_NEAR(u, std::round(u), 1e-12);
    }
  // Snapping: no |phi| in (0, 0.01 h).
  for (double v : lattice.values()) EXPECT_TRUE(v == 0.0 || std::abs(v) >= 0.01 * h);
  // Active cell <=> it intersects the inside: some sample phi < 0 (every cell with an
  // inside corner, the thesis definition, is active); active node <=> corner of an
  // active cell.
  const Eigen::Vector3i cd = lattice.cellDims();
  std::vector<char> corner(static_cast<size_t>(lattice.nodeCount()), 0);
  int active = 0, thesisActive = 0;
  for (int k = 0; k < cd[2]; ++k)
    for (int j = 0; j < cd[1]; ++j)
      for (int i = 0; i < cd[0]; ++i) {
        const auto phi = lattice.cellValues(i, j, k);
        const auto samples = lattice.cellSamples(i, j, k).values;
        const bool inside = *std::min_element(samples.begin(), samples.end()) < 0.0;
        thesisActive += *std::min_element(phi.begin(), phi.end()) < 0.0;
        if (*std::min_element(phi.begin(), phi.end()) < 0.0) {
          EXPECT_TRUE(inside);
        }
        EXPECT_EQ(grid.cellAt(i, j, k) >= 0, inside);
        if (!inside) continue;
        ++active;
        for (int c = 0; c < 8; ++c)
          corner[static_cast<size_t>(lattice.node(i + kHexCorner[c][0], j + kHexCorner[c][1], k + kHexCorner[c][2]))] = 1;
      }
  EXPECT_EQ(active, grid.cellCount());
  EXPECT_EQ(thesisActive, grid.cellCount());  // planar faces: no cell without an inside corner touches it
  for (long long n = 0; n < lattice.nodeCount(); ++n) EXPECT_EQ(grid.nodeOfLatticeNode(n) >= 0, corner[n] != 0);
  // Inside volume: x faces cut cells (1.29 / 0.2 is not an integer), y and z faces lie on
  // nodes; only the edges where a cut face meets a node face are chamfered.
  EXPECT_NEAR(grid.insideVolume(), 2.58 * 0.8 * 1.6, 0.01 * 2.58 * 0.8 * 1.6);
}

TEST(CutCellGrid, ElementsIntegrateTheInsideOnly) {
  const SphereSdf sphere(Vec3(0.05, 0.02, -0.03), 0.5);
  const CutCellGrid grid = makeGrid(sphere, 0.1);
  CutCellQuadratureOptions exact;
  exact.minCellFraction = 0.0;  // the geometric rule, without the floor (tested below)
  const std::vector<Element> elements = buildCutCellElements(grid, exact);
  ASSERT_EQ(elements.size(), grid.cells().size());
  for (size_t e = 0; e < elements.size(); ++e) {
    const Element& el = elements[e];
    ASSERT_EQ(el.nodeCount(), 8);
    EXPECT_NEAR(el.restVolume(), grid.cells()[e].volumeFraction * 1e-3, 1e-15);
    EXPECT_LE(el.quadrature.size(), grid.cells()[e].partial() ? 11u : 8u);
    for (const auto& q : el.quadrature) {
      EXPECT_GT(q.weight, 0.0);
      EXPECT_NEAR(q.N.sum(), 1.0, 1e-14);
      EXPECT_LT(q.dNdX.colwise().sum().norm(), 1e-12);  // partition of unity
    }
  }
  // Lumped mass from the same quadrature: total = density * inside volume.
  const VecX mass = lumpedMass(elements, grid.nodeCount(), VecX::Constant(grid.cellCount(), 7.0));
  EXPECT_NEAR(mass.sum() / 3.0, 7.0 * grid.insideVolume(), 1e-12);
  EXPECT_NEAR(grid.insideVolume(), 4.0 / 3.0 * M_PI * 0.125, 0.01);
  for (int i = 0; i < mass.size(); ++i) EXPECT_GE(mass[i], 0.0);
}

// Nearly empty cut cells: without the volume-fraction floor a corner node of a sliver
// cell has almost no mass and stiffness, and under a static gravity load it sags far
// more than the material it is meant to carry; with the default floor every node has
// at least min_cell_fraction / 8 of an interior node's mass and moves with the body.
TEST(CutCellGrid, FractionFloorBoundsNodeMassAndSag) {
  const TorusSdf torus(Vec3(0.013, 0.3, -0.021), Vec3(0.3, 1.0, 0.2), 0.25, 0.11);
  const double h = 0.05, density = 50.0;
  const CutCellGrid grid = makeGrid(torus, h);
  const EmbeddedSurface surface = extractEmbeddedSurface(grid, SurfaceResolution::Samples);
  const VecX& rest = grid.restPositions();
  struct Result {
    double minMass, maxNodeSag, maxSurfaceSag;
  };
  const auto run = [&](double minCellFraction) {
    CutCellQuadratureOptions options;
    options.minCellFraction = minCellFraction;
    std::vector<Element> elements = buildCutCellElements(grid, options);
    const int m = static_cast<int>(elements.size());
    PhysicalModel model(rest, std::move(elements), MaterialModel::Linear,
                        std::vector<LameParameters>(m, lameFromYoungPoisson(1e4, 0.3)), VecX::Constant(m, density));
    Result r{model.mass().minCoeff() / (density * h * h * h), 0.0, 0.0};
    // Static sag under gravity, the nodes below y = 0.25 held: K u = M g on the rest.
    std::vector<int> freeDof;
    for (int i = 0; i < grid.nodeCount(); ++i)
      if (rest[3 * i + 1] >= 0.25)
        for (int k = 0; k < 3; ++k) freeDof.push_back(3 * i + k);
    SparseMatrix K = model.pattern().zeroMatrix();
    model.assembleStiffness(rest, K);
    std::vector<int> index(rest.size(), -1);
    for (size_t i = 0; i < freeDof.size(); ++i) index[freeDof[i]] = static_cast<int>(i);
    std::vector<Eigen::Triplet<double>> triplets;
    for (int c = 0; c < K.outerSize(); ++c)
      for (SparseMatrix::InnerIterator it(K, c); it; ++it)
        if (index[it.row()] >= 0 && index[it.col()] >= 0) triplets.emplace_back(index[it.row()], index[it.col()], it.value());
    SparseMatrix Kf(static_cast<Eigen::Index>(freeDof.size()), static_cast<Eigen::Index>(freeDof.size()));
    Kf.setFromTriplets(triplets.begin(), triplets.end());
    VecX f(static_cast<Eigen::Index>(freeDof.size()));
    for (size_t i = 0; i < freeDof.size(); ++i) f[i] = freeDof[i] % 3 == 1 ? -10.0 * model.mass()[freeDof[i]] : 0.0;
    const Eigen::SimplicialLDLT<SparseMatrix> solver(Kf);
    EXPECT_EQ(solver.info(), Eigen::Success);
    const VecX uf = solver.solve(f);
    VecX u = VecX::Zero(rest.size());
    for (size_t i = 0; i < freeDof.size(); ++i) u[freeDof[i]] = uf[i];
    for (int i = 0; i < grid.nodeCount(); ++i) r.maxNodeSag = std::max(r.maxNodeSag, u.segment<3>(3 * i).norm());
    const VecX moved = surface.flatPositions(rest + u) - surface.flatPositions(rest);
    for (Eigen::Index v = 0; v < moved.size() / 3; ++v) r.maxSurfaceSag = std::max(r.maxSurfaceSag, moved.segment<3>(3 * v).norm());
    std::printf("min_cell_fraction %g: min node mass %.3g rho h^3, max sag: nodes %.3g m, surface %.3g m\n",
                minCellFraction, r.minMass, r.maxNodeSag, r.maxSurfaceSag);
    return r;
  };
  const Result off = run(0.0);
  const Result on = run(CutCellQuadratureOptions::kDefaultMinCellFraction);
  EXPECT_LT(off.minMass, 1e-8);  // the grid has sliver cells: the test can fail
  EXPECT_GT(off.maxNodeSag, 4.0 * off.maxSurfaceSag);  // 6.3x
  EXPECT_GE(on.minMass, CutCellQuadratureOptions::kDefaultMinCellFraction / 8.0 * (1.0 - 1e-12));
  EXPECT_LT(on.maxNodeSag, 2.0 * on.maxSurfaceSag);  // 1.2x
  EXPECT_NEAR(on.maxSurfaceSag, off.maxSurfaceSag, 0.05 * off.maxSurfaceSag);  // the body sags alike
}

TEST(CutCellGrid, LocateGivesTrilinearWeights) {
  const SphereSdf sphere(Vec3::Zero(), 0.5);
  const CutCellGrid grid = makeGrid(sphere, 0.1);
  for (const Vec3& X : {Vec3(0.0123, -0.2, 0.31), Vec3(0.1, 0.2, 0.0), Vec3(-0.3, 0.0, 0.0)}) {
    const auto p = grid.locate(X);
    ASSERT_TRUE(p.has_value());
    Vec3 back = Vec3::Zero();
    double sum = 0.0;
    for (int c = 0; c < 8; ++c) {
      back += p->weights[c] * grid.restPositions().segment<3>(3 * p->nodes[c]);
      sum += p->weights[c];
      EXPECT_GE(p->weights[c], -1e-15);
    }
    EXPECT_NEAR(sum, 1.0, 1e-14);
    EXPECT_LT((back - X).norm(), 1e-14);
  }
  EXPECT_FALSE(grid.locate(Vec3(3, 0, 0)).has_value());
}

TEST(CutCellGrid, ContactPointsLieOnTheSurface) {
  const TorusSdf torus(Vec3(0.01, 0.5, -0.02), Vec3(0.3, 1, 0), 0.4, 0.15);
  const double h = 0.05;
  const CutCellGrid grid = makeGrid(torus, h);
  const std::vector<ContactPoint> points = edgeCrossingContactPoints(grid);
  EXPECT_GT(points.size(), 100u);
  for (const ContactPoint& p : points) {
    Vec3 X = Vec3::Zero();
    double sum = 0.0;
    for (size_t a = 0; a < p.nodes.size(); ++a) {
      X += p.weights[a] * grid.restPositions().segment<3>(3 * p.nodes[a]);
      sum += p.weights[a];
      EXPECT_GE(p.weights[a], 0.0);
    }
    EXPECT_NEAR(sum, 1.0, 1e-14);
    // On the zero set of the node interpolant: within the interpolation error of the SDF.
    EXPECT_LT(std::abs(torus.value(X)), 0.1 * h);
    EXPECT_NEAR(grid.lattice().interpolate(X), 0.0, 1e-12);
  }
}

TEST(CutCellGrid, EmbeddedSurfaceIsClosedAndBoundsTheQuadratureVolume) {
  const auto a = std::make_shared<TorusSdf>(Vec3(0.01, 0.5, -0.02), Vec3(0.3, 1, 0), 0.4, 0.15);
  const auto b = std::make_shared<SphereSdf>(Vec3(0.4, 0.5, 0.0), 0.2);
  const auto cuboid = std::make_shared<BoxSdf>(Vec3(0, 1, 0), Vec3(1.29, 0.4, 0.8));  // faces on nodes
  const UnionSdf both({a, b});
  for (const SignedDistanceField* sdf : std::initializer_list<const SignedDistanceField*>{&both, cuboid.get()}) {
    const CutCellGrid grid = makeGrid(*sdf, 0.05);
    const EmbeddedSurface surface = extractEmbeddedSurface(grid);
    TriangleSurface rest;
    rest.source = sdf->name();
    rest.vertices = surface.positions(grid.restPositions());
    rest.triangles = surface.triangles;
    EXPECT_NO_THROW(checkConsistentOrientation(rest)) << sdf->name();
    EXPECT_NEAR(enclosedVolume(rest), grid.insideVolume(), 1e-10) << sdf->name();
    // Each vertex moves with the trilinear field: a rigid translation moves it rigidly.
    VecX moved = grid.restPositions();
    for (int n = 0; n < grid.nodeCount(); ++n) moved.segment<3>(3 * n) += Vec3(0.1, -0.2, 0.3);
    const SurfacePoints p = surface.positions(moved);
    EXPECT_LT(((p.rowwise() - Eigen::RowVector3d(0.1, -0.2, 0.3)) - rest.vertices).norm(), 1e-12);
    std::printf("%s: %d vertices, %d triangles, enclosed volume %.6f = quadrature volume %.6f\n", sdf->name().c_str(),
                surface.vertexCount(), surface.triangleCount(), enclosedVolume(rest), grid.insideVolume());
  }
}

TEST(CutCellGrid, BadInputIsAnInputErrorNamingTheSource) {
  const SphereSdf sphere(Vec3::Zero(), 0.5);
  auto expectError = [](const std::function<void()>& f, const std::string& fragment) {
    try {
      f();
      FAIL() << "no error";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  expectError([&] { makeGrid(sphere, 0.0); }, "cell_size");
  expectError([&] { makeGrid(sphere, -1.0); }, "cell_size");
  expectError([&] { makeGrid(sphere, std::nan("")); }, "cell_size");
  expectError([&] { makeGrid(sphere, 1e-5); }, "cell_size");
  // Empty SDF: a difference that removes everything, a sphere thinner than the snapping.
  const auto big = std::make_shared<SphereSdf>(Vec3::Zero(), 1.0);
  const auto small = std::make_shared<SphereSdf>(Vec3::Zero(), 0.5);
  expectError([&] { makeGrid(DifferenceSdf({small, big}), 0.1); }, "no inside point");
  expectError([&] { makeGrid(SphereSdf(Vec3(0.05, 0.05, 0.05), 1e-4), 0.1); }, "sphere: the SDF has no inside point");
  expectError([&] { makeGrid(IntersectionSdf({std::make_shared<SphereSdf>(Vec3(5, 0, 0), 1.0), big}), 0.1); },
              "intersection");
  struct NanSdf final : SignedDistanceField {
    double value(const Vec3&) const override { return std::numeric_limits<double>::quiet_NaN(); }
    AxisBox bounds() const override { return {-Vec3::Ones(), Vec3::Ones()}; }
    std::string name() const override { return "nan-field"; }
  };
  expectError([&] { makeGrid(NanSdf(), 0.5); }, "nan-field: SDF value at");
}

}  // namespace
}  // namespace softfit

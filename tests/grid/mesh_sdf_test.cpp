// SDF of a closed triangle mesh vs brute force (independent point-triangle distance and
// generalized winding number), file loading and the errors for bad surfaces.
#include "grid/mesh_sdf.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "forward/errors.h"
#include "grid/sdf_lattice.h"
#include "grid/cut_cell_grid.h"

namespace softfit {
namespace {

// Closed torus surface (major R, minor r) around z, outward-oriented.
TriangleSurface torusSurface(double R, double r, int nu, int nv) {
  TriangleSurface s;
  s.source = "torus.obj";
  s.vertices.resize(nu * nv, 3);
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < nv; ++j) {
      const double u = 2 * M_PI * i / nu, v = 2 * M_PI * j / nv;
      s.vertices.row(i * nv + j) << (R + r * std::cos(v)) * std::cos(u), (R + r * std::cos(v)) * std::sin(u),
          r * std::sin(v);
    }
  s.triangles.resize(2 * nu * nv, 3);
  int t = 0;
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < nv; ++j) {
      const int a = i * nv + j, b = ((i + 1) % nu) * nv + j, c = ((i + 1) % nu) * nv + (j + 1) % nv,
                d = i * nv + (j + 1) % nv;
      s.triangles.row(t++) << a, b, c;
      s.triangles.row(t++) << a, c, d;
    }
  return s;
}

Vec3 vertex(const TriangleSurface& s, int t, int c) { return s.vertices.row(s.triangles(t, c)).transpose(); }

double segmentDistance(const Vec3& p, const Vec3& a, const Vec3& b) {
  const double t = std::clamp((p - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
  return (p - (a + t * (b - a))).norm();
}

// Independent brute force: plane projection if it falls inside, else the edges.
double bruteForceDistance(const TriangleSurface& s, const Vec3& p) {
  double best = 1e300;
  for (int t = 0; t < s.triangleCount(); ++t) {
    const Vec3 a = vertex(s, t, 0), b = vertex(s, t, 1), c = vertex(s, t, 2);
    const Vec3 n = (b - a).cross(c - a).normalized();
    const Vec3 q = p - n.dot(p - a) * n;
    const bool inside = (b - a).cross(q - a).dot(n) >= 0 && (c - b).cross(q - b).dot(n) >= 0 &&
                        (a - c).cross(q - c).dot(n) >= 0;
    double d = inside ? std::abs(n.dot(p - a))
                      : std::min({segmentDistance(p, a, b), segmentDistance(p, b, c), segmentDistance(p, c, a)});
    best = std::min(best, d);
  }
  return best;
}

// Generalized winding number (Van Oosterom & Strackee solid angles): 1 inside, 0 outside.
double windingNumber(const TriangleSurface& s, const Vec3& p) {
  double total = 0.0;
  for (int t = 0; t < s.triangleCount(); ++t) {
    const Vec3 a = vertex(s, t, 0) - p, b = vertex(s, t, 1) - p, c = vertex(s, t, 2) - p;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    total += 2 * std::atan2(a.dot(b.cross(c)), la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb);
  }
  return total / (4 * M_PI);
}

void expectMatchesBruteForce(const TriangleSurface& surface, const TriangleMeshSdf& sdf, int samples) {
  std::mt19937 rng(17);
  const AxisBox b = sdf.bounds();
  const Vec3 pad = Vec3::Constant(0.3 * (b.max - b.min).maxCoeff());
  int inside = 0;
  for (int i = 0; i < samples; ++i) {
    Vec3 p;
    for (int a = 0; a < 3; ++a) p[a] = std::uniform_real_distribution<double>(b.min[a] - pad[a], b.max[a] + pad[a])(rng);
    const double distance = bruteForceDistance(surface, p);
    const double w = windingNumber(surface, p);
    ASSERT_TRUE(std::abs(w) < 1e-6 || std::abs(w - 1) < 1e-6) << "winding number " << w;
    const double expected = w > 0.5 ? -distance : distance;
    inside += w > 0.5;
    EXPECT_NEAR(sdf.value(p), expected, 1e-12 * (1 + distance)) << "at " << p.transpose();
  }
  EXPECT_GT(inside, samples / 20);
}

TEST(MeshSdf, AgreesWithBruteForceDistanceAndWindingNumber) {
  const TriangleSurface torus = torusSurface(1.0, 0.35, 24, 12);
  const TriangleMeshSdf sdf(torus);
  expectMatchesBruteForce(torus, sdf, 3000);

  // Points close to vertices, edges and faces (where the pseudonormal choice matters).
  std::mt19937 rng(23);
  std::normal_distribution<double> noise(0.0, 1e-3);
  for (int t = 0; t < torus.triangleCount(); t += 7) {
    const Vec3 p = (vertex(torus, t, 0) * 0.6 + vertex(torus, t, 1) * 0.3 + vertex(torus, t, 2) * 0.1) +
                   Vec3(noise(rng), noise(rng), noise(rng));
    const Vec3 q = vertex(torus, t, t % 3) + Vec3(noise(rng), noise(rng), noise(rng));
    for (const Vec3& x : {p, q}) {
      const double w = windingNumber(torus, x);
      const double d = bruteForceDistance(torus, x);
      if (d < 1e-9) continue;
      EXPECT_NEAR(sdf.value(x), w > 0.5 ? -d : d, 1e-12) << "near triangle " << t;
    }
  }
}

TEST(MeshSdf, InwardOrientedSurfaceIsFlipped) {
  TriangleSurface inward = torusSurface(1.0, 0.35, 16, 8);
  for (int t = 0; t < inward.triangleCount(); ++t) std::swap(inward.triangles(t, 1), inward.triangles(t, 2));
  const TriangleMeshSdf sdf(inward);
  EXPECT_LT(sdf.value(Vec3(1, 0, 0)), 0.0);
  EXPECT_GT(sdf.value(Vec3(0, 0, 0)), 0.0);
}

TEST(MeshSdf, ReadsObjAndStlFiles) {
  for (const char* file : {"cube_tri.obj", "cube_ascii.stl", "cube_binary.stl"}) {
    const auto sdf = loadTriangleMeshSdf(std::string(SOFTFIT_SOURCE_DIR) + "/data/meshes/" + file, 2.0, Vec3(1, 0, 0));
    // Unit cube scaled by 2 and moved: [1, 3] x [0, 2] x [0, 2].
    EXPECT_NEAR(sdf->value(Vec3(2, 1, 1)), -1.0, 1e-12) << file;
    EXPECT_NEAR(sdf->value(Vec3(4, 1, 1)), 1.0, 1e-12) << file;
    EXPECT_NEAR(sdf->value(Vec3(3.3, 2.4, 1)), 0.5, 1e-12) << file;
  }
}

TEST(MeshSdf, NonClosedAndInconsistentSurfacesAreInputErrorsNamingTheSource) {
  TriangleSurface open = torusSurface(1.0, 0.35, 12, 6);
  open.triangles.conservativeResize(open.triangleCount() - 1, 3);
  try {
    TriangleMeshSdf sdf(open);
    FAIL() << "open surface accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("torus.obj"), std::string::npos) << e.what();
  }
  TriangleSurface flipped = torusSurface(1.0, 0.35, 12, 6);
  std::swap(flipped.triangles(3, 1), flipped.triangles(3, 2));
  try {
    TriangleMeshSdf sdf(flipped);
    FAIL() << "inconsistently oriented surface accepted";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("torus.obj"), std::string::npos) << m;
    EXPECT_NE(m.find("oriented"), std::string::npos) << m;
  }
  const std::string path = (std::filesystem::temp_directory_path() / "softfit_open_surface.obj").string();
  std::ofstream(path) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\n";
  try {
    loadTriangleMeshSdf(path);
    FAIL() << "open OBJ accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("softfit_open_surface.obj"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
  EXPECT_THROW(loadTriangleMeshSdf("surface.ply"), InputError);
}

TEST(MeshSdf, GridOfAMeshHasTheMeshVolume) {
  const TriangleSurface torus = torusSurface(1.0, 0.35, 48, 24);
  const TriangleMeshSdf sdf(torus);
  LatticeOptions options;
  options.cellSize = 0.05;
  const CutCellGrid grid(sampleSdfLattice(sdf, options));
  const double meshVolume = enclosedVolume(torus);
  std::printf("mesh torus: enclosed volume %.6f, cut-cell grid volume %.6f (h = 0.05, rel. diff %.3f%%)\n", meshVolume,
              grid.insideVolume(), 100 * (grid.insideVolume() / meshVolume - 1));
  EXPECT_NEAR(grid.insideVolume() / meshVolume, 1.0, 0.01);
}

}  // namespace
}  // namespace softfit

#include "forward/mesh/surface_tetrahedralizer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "forward/mesh/obj_surface_reader.h"
#include "forward/mesh/stl_surface_reader.h"
#include "forward/mesh/temp_directory.h"
#include "mesh_test_support.h"

namespace softfit {
namespace {

using testing::fixturePath;
using testing::readTextFile;
using testing::sharedDataPath;
using testing::totalVolume;
using testing::writeTextFile;

#define REQUIRE_TETGEN() \
  if (!tetgenAvailable()) GTEST_SKIP() << "tetgen executable not available"

TEST(SurfaceTetrahedralizer, Switches) {
  EXPECT_EQ(tetgenMeshingSwitches({}), "-pzQFq1.414");
  SurfaceMeshingOptions o;
  o.maxRadiusEdgeRatio = 0.0;
  o.maxTetVolume = 0.5;
  EXPECT_EQ(tetgenMeshingSwitches(o), "-pzQFa0.5");
  o.maxRadiusEdgeRatio = 2.0;
  o.minDihedralAngle = 15.0;
  o.maxTetVolume = 1e-5;
  EXPECT_EQ(tetgenMeshingSwitches(o), "-pzQFq2/15a1e-05");
  o.maxTetVolume = std::nan("");
  EXPECT_INPUT_ERROR(tetgenMeshingSwitches(o), "maxTetVolume");
}

TEST(SurfaceTetrahedralizer, CubeFromEverySurfaceFormat) {
  REQUIRE_TETGEN();
  for (const char* name : {"cube_tri.obj", "cube_quads.obj", "cube_ascii.stl", "cube_binary.stl"}) {
    const std::string path = fixturePath(name);
    const TriangleSurface surface =
        std::string(name).find(".obj") != std::string::npos ? readObjSurface(path) : readStlSurface(path);
    const TetMesh m = tetrahedralizeSurface(surface);
    EXPECT_EQ(m.source, path);
    EXPECT_NO_THROW(validateTetMesh(m));
    EXPECT_NEAR(totalVolume(m), 1.0, 1e-12) << name;
    EXPECT_GE(m.vertices.minCoeff(), 0.0);
    EXPECT_LE(m.vertices.maxCoeff(), 1.0);
    EXPECT_EQ(boundaryFaces(m).rows() % 2, 0);
  }
}

TEST(SurfaceTetrahedralizer, MaxVolumeRefines) {
  REQUIRE_TETGEN();
  SurfaceMeshingOptions o;
  o.maxTetVolume = 0.002;
  const TetMesh m = tetrahedralizeSurface(readObjSurface(fixturePath("cube_tri.obj")), o);
  EXPECT_GT(m.tetCount(), 500);
  // TetGen enforces -a approximately (a few tets end up slightly larger).
  for (int t = 0; t < m.tetCount(); ++t) EXPECT_LE(signedTetVolume(m, t), 0.002 * 1.25);
  EXPECT_NEAR(totalVolume(m), 1.0, 1e-12);
}

TEST(SurfaceTetrahedralizer, TinyMaxVolumeIsRefusedBeforeTetgenRuns) {
  // Issue 25: "max_tet_volume": 1e-12 let TetGen run without limit (checked before TetGen is looked up).
  SurfaceMeshingOptions o;
  o.maxTetVolume = 1e-12;
  const TriangleSurface cube = readObjSurface(fixturePath("cube_tri.obj"));
  EXPECT_INPUT_ERROR(tetrahedralizeSurface(cube, o), "cube_tri.obj", "max_tet_volume 1e-12", "indexed");
  o.maxTetVolume = 1e-8;  // 1e8 tets: about 200 GB
  EXPECT_INPUT_ERROR(tetrahedralizeSurface(cube, o), "cube_tri.obj", "max_tet_volume 1e-08", "memory");
}

TEST(SurfaceTetrahedralizer, SharedBunnyVolumeMatchesSurface) {
  REQUIRE_TETGEN();
  const std::string bunny = sharedDataPath("surface/bunny_res2.obj");
  if (bunny.empty()) GTEST_SKIP() << "shared data not available";
  const TriangleSurface surface = readObjSurface(bunny);
  SurfaceMeshingOptions o;
  o.maxRadiusEdgeRatio = 0.0;  // keep the test fast: no quality refinement
  // The decimated bunny has two small folds (self-intersections) that the local repair removes.
  const TetMesh m = tetrahedralizeSurface(surface, o);
  EXPECT_NO_THROW(validateTetMesh(m));
  const double expected = enclosedVolume(surface);
  EXPECT_GT(expected, 0.0);
  EXPECT_NEAR(totalVolume(m), expected, 0.01 * expected);
  // Without repair the folds are reported.
  o.selfIntersectionRepairIterations = 0;
  EXPECT_INPUT_ERROR(tetrahedralizeSurface(surface, o), "bunny_res2.obj", "intersects itself");
}

TEST(SurfaceTetrahedralizer, OpenSurfaceIsRejected) {
  TriangleSurface s = readObjSurface(fixturePath("cube_tri.obj"));
  s.triangles.conservativeResize(10, 3);
  EXPECT_INPUT_ERROR(tetrahedralizeSurface(s), "cube_tri.obj", "not a closed manifold", "boundary edge");
}

TEST(SurfaceTetrahedralizer, OverlappingSolidsAreRejected) {
  REQUIRE_TETGEN();
  // Two interpenetrating closed cubes: closed and manifold, but self-intersecting far
  // beyond what the local repair may fix.
  const std::string cube = readTextFile(fixturePath("cube_quads.obj"));
  std::string text = cube;
  for (const char* v : {"v 0.5 0.5 0.5\n", "v 1.5 0.5 0.5\n", "v 1.5 1.5 0.5\n", "v 0.5 1.5 0.5\n",
                        "v 0.5 0.5 1.5\n", "v 1.5 0.5 1.5\n", "v 1.5 1.5 1.5\n", "v 0.5 1.5 1.5\n"})
    text += v;
  text += "f 9 12 11 10\nf 13 14 15 16\nf 9 10 14 13\nf 10 11 15 14\nf 11 12 16 15\nf 12 9 13 16\n";
  TempDirectory dir;
  writeTextFile(dir.file("two_cubes.obj"), text);
  EXPECT_INPUT_ERROR(tetrahedralizeSurface(readObjSurface(dir.file("two_cubes.obj"))), "two_cubes.obj",
                     "intersects itself");
}

TEST(SurfaceTetrahedralizer, MissingTetgenIsReported) {
  SurfaceMeshingOptions o;
  o.tetgenExecutable = "/nonexistent/tetgen";
  EXPECT_FALSE(tetgenAvailable(o));
  EXPECT_INPUT_ERROR(tetrahedralizeSurface(readObjSurface(fixturePath("cube_tri.obj")), o), "cube_tri.obj",
                     "cannot run '/nonexistent/tetgen'");
}

TEST(SurfaceTetrahedralizer, TemporaryFilesAreRemoved) {
  REQUIRE_TETGEN();
  // Point TMPDIR at a private folder so concurrent tests cannot interfere with the count.
  TempDirectory probe;
  const char* previous = std::getenv("TMPDIR");
  const std::string saved = previous ? previous : "";
  setenv("TMPDIR", probe.path().c_str(), 1);
  EXPECT_NO_THROW(tetrahedralizeSurface(readObjSurface(fixturePath("cube_tri.obj"))));
  SurfaceMeshingOptions broken;
  broken.tetgenExecutable = "/nonexistent/tetgen";  // fails after the scratch folder exists
  EXPECT_INPUT_ERROR(tetrahedralizeSurface(readObjSurface(fixturePath("cube_tri.obj")), broken), "cube_tri.obj");
  if (previous) {
    setenv("TMPDIR", saved.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  EXPECT_TRUE(std::filesystem::is_empty(probe.path()));
}

}  // namespace
}  // namespace softfit

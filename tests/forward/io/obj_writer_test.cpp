#include "forward/io/obj_writer.h"

#include <gtest/gtest.h>

#include "forward/errors.h"
#include "forward/mesh/obj_surface_reader.h"
#include "forward/mesh/procedural_box.h"
#include "forward/mesh/temp_directory.h"
#include "io_test_support.h"

namespace softfit {
namespace {

using testing::readFile;

TEST(ObjWriter, BoxSurfaceRoundTripsExactly) {
  const TetMesh box = makeBoxMesh(Vec3(-0.1, 0, 0), Vec3(0.2, 1.0 / 3.0, 0.7), 2, 3, 1);
  const auto faces = boundaryFaces(box);
  TempDirectory dir;
  writeObj(dir.file("box.obj"), box.vertices, faces);
  const TriangleSurface s = readObjSurface(dir.file("box.obj"));
  EXPECT_EQ(s.vertices, box.vertices);
  EXPECT_EQ(s.triangles, faces);
  EXPECT_NEAR(enclosedVolume(s), 0.3 * (1.0 / 3.0) * 0.7, 1e-15);
  // Flat-positions overload and a second write give the same bytes.
  writeObj(dir.file("again.obj"), box.restPositions(), faces);
  EXPECT_EQ(readFile(dir.file("again.obj")), readFile(dir.file("box.obj")));
}

TEST(ObjWriter, Errors) {
  const TetMesh box = makeBoxMesh(Vec3::Zero(), Vec3::Ones(), 1, 1, 1);
  auto faces = boundaryFaces(box);
  TempDirectory dir;
  const std::string bad = dir.file("nowhere/x.obj");
  try {
    writeObj(bad, box.vertices, faces);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
  faces(0, 0) = 8;
  EXPECT_THROW(writeObj(dir.file("y.obj"), box.vertices, faces), InputError);
  EXPECT_THROW(writeObj(dir.file("z.obj"), VecX(VecX::Zero(4)), boundaryFaces(box)), InputError);
}

}  // namespace
}  // namespace softfit

// Issue 25: seeded mutation fuzzing of the mesh and surface readers (MEDIT, Gmsh v2/v4,
// TetGen, OBJ, STL): every mutated file is read or refused with an InputError, never a
// crash, an unbounded allocation or another exception. Deterministic (fixed seed).
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "forward/mesh/gmsh_reader.h"
#include "forward/mesh/medit_reader.h"
#include "forward/mesh/obj_surface_reader.h"
#include "forward/mesh/stl_surface_reader.h"
#include "forward/mesh/temp_directory.h"
#include "forward/mesh/tetgen_reader.h"
#include "mesh_test_support.h"
#include "support/mutation_fuzz.h"

namespace softfit {
namespace {

using testing::fixturePath;
using testing::fuzzReader;
using testing::readTextFile;

constexpr int kMutations = 300;

TEST(ReaderFuzz, AnExceptionOtherThanInputErrorFailsTheFuzzTest) {
  TempDirectory dir;
  const std::string path = dir.file("f.txt");
  EXPECT_NONFATAL_FAILURE(fuzzReader("1 2 3", path, 1, [](const std::string&) { throw std::out_of_range("stoi"); }),
                          "stoi");
  fuzzReader("1 2 3", path, 5, [](const std::string& p) { throw InputError(p + ": refused"); });  // allowed
}

TEST(ReaderFuzz, MeditGmshAndTetgen) {
  TempDirectory dir;
  fuzzReader(readTextFile(fixturePath("cube12.mesh")), dir.file("f.mesh"), kMutations,
             [](const std::string& p) { readMeditMesh(p); });
  for (const char* gmsh : {"cube12_v2.msh", "cube12_v41.msh"})
    fuzzReader(readTextFile(fixturePath(gmsh)), dir.file("f.msh"), kMutations,
               [](const std::string& p) { readGmshMesh(p); });
  std::filesystem::copy_file(fixturePath("cube12.ele"), dir.file("f.ele"));
  fuzzReader(readTextFile(fixturePath("cube12.node")), dir.file("f.node"), kMutations,
             [](const std::string& p) { readTetgenMesh(p); });
}

TEST(ReaderFuzz, ObjAndStlSurfaces) {
  TempDirectory dir;
  fuzzReader(readTextFile(fixturePath("cube_quads.obj")), dir.file("f.obj"), kMutations,
             [](const std::string& p) { readObjSurface(p); });
  for (const char* stl : {"cube_ascii.stl", "cube_binary.stl"})
    fuzzReader(readTextFile(fixturePath(stl)), dir.file("f.stl"), kMutations,
               [](const std::string& p) { readStlSurface(p); });
}

}  // namespace
}  // namespace softfit

#pragma once
// Helpers shared by the mesh tests: fixture paths, scratch files, InputError checks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "forward/errors.h"
#include "forward/mesh/tet_mesh.h"

namespace softfit::testing {

inline std::string fixturePath(const std::string& name) {
  return std::string(SOFTFIT_SOURCE_DIR) + "/data/meshes/" + name;
}

// Path under ../shared/data, or "" when that file is not there.
inline std::string sharedDataPath(const std::string& relative) {
  const std::string path = std::string(SOFTFIT_SHARED_DATA_DIR) + "/" + relative;
  return std::filesystem::exists(path) ? path : std::string();
}

inline void writeTextFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  ASSERT_TRUE(out) << path;
  out << content;
}

inline std::string readTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline double totalVolume(const TetMesh& mesh) {
  double v = 0.0;
  for (int t = 0; t < mesh.tetCount(); ++t) v += signedTetVolume(mesh, t);
  return v;
}

}  // namespace softfit::testing

// Expects `statement` to throw softfit::InputError whose message contains `needle`
// (and every extra string given after it).
#define EXPECT_INPUT_ERROR(statement, ...)                                                  \
  do {                                                                                      \
    bool threw_ = false;                                                                    \
    try {                                                                                   \
      statement;                                                                            \
    } catch (const softfit::InputError& e_) {                                               \
      threw_ = true;                                                                        \
      for (const std::string needle_ : {__VA_ARGS__})                                       \
        EXPECT_NE(std::string(e_.what()).find(needle_), std::string::npos)                  \
            << "message '" << e_.what() << "' lacks '" << needle_ << "'";                   \
    }                                                                                       \
    EXPECT_TRUE(threw_) << #statement " did not throw InputError";                          \
  } while (0)

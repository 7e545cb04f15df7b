// Issue 25: seeded mutation fuzzing of the observation readers (PLY ascii and binary,
// XYZ, capture.json, cameras.json): every mutated file is read or refused with an
// InputError, never a crash, an unbounded allocation or another exception.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "forward/mesh/temp_directory.h"
#include "observations/camera_json.h"
#include "observations/capture_io.h"
#include "observations/ply_io.h"
#include "observations/xyz_io.h"
#include "support/mutation_fuzz.h"

namespace softfit {
namespace {

namespace fs = std::filesystem;
using testing::fuzzReader;

constexpr int kMutations = 300;
const std::string kCapture = std::string(SOFTFIT_SOURCE_DIR) + "/data/captures/tiny";

std::string fileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ObservationReaderFuzz, PointCloudFiles) {
  TempDirectory dir;
  PointCloud cloud;
  cloud.points.resize(3, 3);
  cloud.points << 0, 0, 0, 1, 0.5, 0.25, -1, 2, 3;
  writePly(dir.file("a.ply"), cloud, PlyFormat::Ascii);
  writePly(dir.file("b.ply"), cloud, PlyFormat::BinaryLittleEndian);
  writeXyz(dir.file("c.xyz"), cloud);
  for (const char* seed : {"a.ply", "b.ply"})
    fuzzReader(fileText(dir.file(seed)), dir.file("f.ply"), kMutations, [](const std::string& p) { readPly(p); });
  fuzzReader(fileText(dir.file("c.xyz")), dir.file("f.xyz"), kMutations, [](const std::string& p) { readXyz(p); });
}

TEST(ObservationReaderFuzz, CaptureAndCameraJson) {
  TempDirectory dir;
  for (const auto& entry : fs::directory_iterator(kCapture))
    if (entry.path().filename() != "capture.json") fs::copy_file(entry.path(), dir.path() / entry.path().filename());
  fuzzReader(fileText(kCapture + "/capture.json"), dir.file("capture.json"), kMutations,
             [&](const std::string&) { loadCapture(dir.path()); });
  fuzzReader(fileText(kCapture + "/camera0.json"), dir.file("cams.json"), kMutations,
             [](const std::string& p) { readCameras(p); });
}

}  // namespace
}  // namespace softfit

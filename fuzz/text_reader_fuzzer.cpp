// libFuzzer target for the text readers (issue 25): MEDIT, Gmsh, OBJ, STL, XYZ, PLY,
// TetGen, JSON scenes (parsed to a SceneDescription, nothing built), capture.json
// (parsed to a CaptureManifest, no cloud read: the manifest of point-cloud and raw depth
// captures alike) and depth-camera intrinsics JSON (readDepthIntrinsics, as reconstruct
// reads them). The first byte picks the reader, the rest
// is written to a file of its extension and read; for TetGen the rest is split at the
// first '@' into the .node and the .ele file. Bad input must end in InputError; any other exception, crash or sanitizer
// report is a defect. Built by fuzz/CMakeLists.txt with clang (see fuzz/README.md).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>

#include "forward/errors.h"
#include "forward/io/json_fields.h"
#include "forward/mesh/gmsh_reader.h"
#include "forward/mesh/medit_reader.h"
#include "forward/mesh/obj_surface_reader.h"
#include "forward/mesh/stl_surface_reader.h"
#include "forward/mesh/tetgen_reader.h"
#include "observations/capture_manifest.h"
#include "observations/depth_frame.h"
#include "observations/ply_io.h"
#include "observations/xyz_io.h"
#include "scene/scene_loader.h"

namespace {

struct Reader {
  const char* extension;
  void (*read)(const std::string& path);
};

// TetGen reads a pair of files; `path` holds both, split at the first '@'.
void readTetgenPair(const std::string& path) {
  std::string content;
  {
    std::ifstream in(path, std::ios::binary);
    content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::size_t split = content.find('@');
  const std::string stem = path + ".pair";
  std::ofstream(stem + ".node", std::ios::binary) << content.substr(0, split);
  std::ofstream(stem + ".ele", std::ios::binary) << (split == std::string::npos ? std::string() : content.substr(split + 1));
  struct Cleanup {
    std::string stem;
    ~Cleanup() {
      ::unlink((stem + ".node").c_str());
      ::unlink((stem + ".ele").c_str());
    }
  } cleanup{stem};
  softfit::readTetgenMesh(stem + ".node");
}

void readCaptureJson(const std::string& path) { softfit::parseCaptureManifest(softfit::readJsonFile(path), path); }

// Seeds in fuzz/corpus/ start with their reader's index (0 = MEDIT ... 8 = capture.json,
// 9 = depth intrinsics).
const Reader kReaders[] = {
    {".mesh", [](const std::string& p) { softfit::readMeditMesh(p); }},
    {".msh", [](const std::string& p) { softfit::readGmshMesh(p); }},
    {".obj", [](const std::string& p) { softfit::readObjSurface(p); }},
    {".stl", [](const std::string& p) { softfit::readStlSurface(p); }},
    {".xyz", [](const std::string& p) { softfit::readXyz(p); }},
    {".ply", [](const std::string& p) { softfit::readPly(p); }},
    {".tetgen", readTetgenPair},
    {".scene.json", [](const std::string& p) { softfit::loadScene(p); }},
    {".capture.json", readCaptureJson},
    {".intrinsics.json", [](const std::string& p) { softfit::readDepthIntrinsics(p); }},
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const Reader& reader = kReaders[data[0] % (sizeof(kReaders) / sizeof(kReaders[0]))];
  const std::string path = "/tmp/softfit-fuzz-" + std::to_string(::getpid()) + reader.extension;
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  try {
    reader.read(path);
  } catch (const softfit::InputError&) {
  }
  ::unlink(path.c_str());
  return 0;
}

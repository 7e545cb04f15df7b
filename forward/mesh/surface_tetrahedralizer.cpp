#include "forward/mesh/surface_tetrahedralizer.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <vector>

#include "forward/errors.h"
#include "forward/mesh/memory_budget.h"
#include "forward/mesh/mesh_compaction.h"
#include "forward/mesh/process_runner.h"
#include "forward/mesh/surface_checks.h"
#include "forward/mesh/temp_directory.h"
#include "forward/mesh/tetgen_reader.h"
#include "forward/mesh/text_tokenizer.h"
#include "forward/mesh/triangle_surface.h"

#ifndef SOFTFIT_TETGEN_EXECUTABLE
#define SOFTFIT_TETGEN_EXECUTABLE "tetgen"
#endif

namespace softfit {

namespace {

constexpr std::size_t kLogTail = 2000;

std::string shortest(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

void writeSmesh(const TriangleSurface& surface, const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw InputError("cannot write the temporary TetGen input '" + path + "'");
  std::fprintf(f, "%d 3 0 0\n", surface.vertexCount());
  for (int v = 0; v < surface.vertexCount(); ++v)
    std::fprintf(f, "%d %.17g %.17g %.17g\n", v, surface.vertices(v, 0), surface.vertices(v, 1), surface.vertices(v, 2));
  std::fprintf(f, "%d 0\n", surface.triangleCount());
  for (int t = 0; t < surface.triangleCount(); ++t)
    std::fprintf(f, "3 %d %d %d\n", surface.triangles(t, 0), surface.triangles(t, 1), surface.triangles(t, 2));
  std::fprintf(f, "0\n0\n");  // no holes, no regions
  const bool ok = std::ferror(f) == 0;
  if (std::fclose(f) != 0 || !ok) throw InputError("cannot write the temporary TetGen input '" + path + "'");
}

// runProcess, with errors naming the surface being meshed.
ProcessResult runTetgen(const TriangleSurface& surface, const std::vector<std::string>& argv,
                        const std::string& logPath) {
  try {
    return runProcess(argv, logPath);
  } catch (const InputError& e) {
    throw InputError(surface.source + ": " + e.what());
  }
}

std::string tetgenFailure(const TriangleSurface& surface, const std::string& what, const ProcessResult& result,
                          const std::string& logPath) {
  return surface.source + ": TetGen failed while " + what + " (" + result.describe() + "); TetGen output:\n" +
         fileTail(logPath, kLogTail);
}

// Vertices of the triangles TetGen -d reports as intersecting (its .1.face output,
// 0-based thanks to -z). Empty when TetGen found no intersections.
std::set<int> intersectingVertices(const std::string& facePath) {
  std::set<int> vertices;
  if (!std::filesystem::exists(facePath)) return vertices;
  TextTokenizer in(facePath, '#');
  const long long count = in.integer("the face count");
  const long long markers = in.integer("the boundary-marker flag");
  for (long long f = 0; f < count; ++f) {
    in.integer("a face index");
    for (int c = 0; c < 3; ++c) vertices.insert(static_cast<int>(in.integer("a face vertex")));
    if (markers) in.integer("a face marker");
  }
  return vertices;
}

// Jacobi step: each listed vertex moves to the centroid of its one-ring neighbours.
void smoothVertices(TriangleSurface& surface, const std::set<int>& vertices) {
  std::vector<std::set<int>> neighbours(surface.vertexCount());
  for (int t = 0; t < surface.triangleCount(); ++t)
    for (int c = 0; c < 3; ++c) {
      const int a = surface.triangles(t, c);
      if (!vertices.count(a)) continue;
      neighbours[a].insert(surface.triangles(t, (c + 1) % 3));
      neighbours[a].insert(surface.triangles(t, (c + 2) % 3));
    }
  std::vector<std::pair<int, Vec3>> moved;
  for (int v : vertices) {
    if (v < 0 || v >= surface.vertexCount() || neighbours[v].empty()) continue;
    Vec3 centroid = Vec3::Zero();
    for (int n : neighbours[v]) centroid += surface.vertices.row(n).transpose();
    moved.emplace_back(v, centroid / static_cast<double>(neighbours[v].size()));
  }
  for (const auto& [v, x] : moved) surface.vertices.row(v) = x.transpose();
}

std::string pointText(const TriangleSurface& s, int v) {
  if (v < 0 || v >= s.vertexCount()) return "(vertex " + std::to_string(v) + ")";
  std::ostringstream out;
  out << "(" << s.vertices(v, 0) << ", " << s.vertices(v, 1) << ", " << s.vertices(v, 2) << ")";
  return out.str();
}

// Runs TetGen -d until the surface has no self-intersections, repairing as allowed.
void removeSelfIntersections(TriangleSurface& surface, const SurfaceMeshingOptions& options,
                             const std::string& tetgen, const TempDirectory& dir) {
  const double originalVolume = std::abs(enclosedVolume(surface));
  for (int attempt = 0;; ++attempt) {
    const std::string base = dir.file("check" + std::to_string(attempt));
    writeSmesh(surface, base + ".smesh");
    const std::string log = base + ".log";
    const ProcessResult result = runTetgen(surface, {tetgen, "-dzQ", base + ".smesh"}, log);
    if (!result.succeeded())
      throw InputError(tetgenFailure(surface, "checking the surface for self-intersections", result, log));
    const std::set<int> bad = intersectingVertices(base + ".1.face");
    if (bad.empty()) return;
    const auto fail = [&](const std::string& why) {
      std::ostringstream s;
      s << surface.source << ": surface intersects itself (TetGen -d reports intersecting triangles involving "
        << bad.size() << " vertices, e.g. the vertex at " << pointText(surface, *bad.begin()) << ")" << why
        << "; repair the surface and retry";
      throw InputError(s.str());
    };
    if (attempt >= options.selfIntersectionRepairIterations)
      fail(attempt == 0 ? std::string()
                        : " and " + std::to_string(attempt) + " local smoothing steps did not remove it");
    smoothVertices(surface, bad);
    const double change = std::abs(std::abs(enclosedVolume(surface)) - originalVolume);
    if (!(change <= options.maxRepairVolumeChange * originalVolume)) {
      std::ostringstream why;
      why << " and smoothing it away would change the enclosed volume by " << 100.0 * change / originalVolume
          << "% (limit " << 100.0 * options.maxRepairVolumeChange << "%)";
      fail(why.str());
    }
  }
}

}  // namespace

std::string tetgenExecutable(const SurfaceMeshingOptions& options) {
  return options.tetgenExecutable.empty() ? std::string(SOFTFIT_TETGEN_EXECUTABLE) : options.tetgenExecutable;
}

bool tetgenAvailable(const SurfaceMeshingOptions& options) {
  const std::string program = tetgenExecutable(options);
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0;
  const char* pathVariable = std::getenv("PATH");
  std::string dirs = pathVariable ? pathVariable : "";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    if (access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

std::string tetgenMeshingSwitches(const SurfaceMeshingOptions& options) {
  const auto check = [](double value, const char* name) {
    if (!std::isfinite(value)) throw InputError(std::string("surface meshing option ") + name + " is not finite");
  };
  check(options.maxRadiusEdgeRatio, "maxRadiusEdgeRatio");
  check(options.minDihedralAngle, "minDihedralAngle");
  check(options.maxTetVolume, "maxTetVolume");
  // p: PLC input, z: 0-based output, Q: quiet, F: no .face/.edge output.
  std::string switches = "-pzQF";
  if (options.maxRadiusEdgeRatio > 0.0) {
    switches += "q" + shortest(options.maxRadiusEdgeRatio);
    if (options.minDihedralAngle > 0.0) switches += "/" + shortest(options.minDihedralAngle);
  }
  if (options.maxTetVolume > 0.0) switches += "a" + shortest(options.maxTetVolume);
  return switches;
}

TetMesh tetrahedralizeSurface(const TriangleSurface& input, const SurfaceMeshingOptions& options) {
  const std::string switches = tetgenMeshingSwitches(options);
  TriangleSurface surface = cleanSurface(input);
  if (!surface.vertices.allFinite()) throw InputError(surface.source + ": surface has a non-finite vertex coordinate");
  checkClosedSurface(surface);
  if (options.maxTetVolume > 0.0) {  // TetGen would run without limit on a tiny -a: estimate first
    const long double tets = std::abs(enclosedVolume(surface)) / options.maxTetVolume;
    const std::string what = surface.source + ": max_tet_volume " + shortest(options.maxTetVolume) + " gives about " +
                             shortest(static_cast<double>(tets)) + " tets";
    if (tets > INT_MAX) throw InputError(what + ", more than can be indexed");
    requireMemory(tets * kSimulationBytesPerTet, what);
  }
  const std::string tetgen = tetgenExecutable(options);

  TempDirectory dir("softfit-tetgen-");
  removeSelfIntersections(surface, options, tetgen, dir);

  const std::string base = dir.file("surface");
  writeSmesh(surface, base + ".smesh");
  const std::string log = base + ".log";
  const ProcessResult result = runTetgen(surface, {tetgen, switches, base + ".smesh"}, log);
  if (!result.succeeded())
    throw InputError(tetgenFailure(surface, "tetrahedralizing with " + switches, result, log));
  if (!std::filesystem::exists(base + ".1.node") || !std::filesystem::exists(base + ".1.ele"))
    throw InputError(surface.source + ": TetGen (" + switches + ") produced no mesh; TetGen output:\n" +
                     fileTail(log, kLogTail));
  TetMesh mesh;
  try {
    mesh = readTetgenMesh(base + ".1.node");
  } catch (const InputError& e) {
    throw InputError(surface.source + ": unusable TetGen output: " + e.what());
  }
  mesh.source = surface.source;
  return removeUnreferencedVertices(mesh);  // TetGen may drop (near-)duplicate input points
}

}  // namespace softfit

#include "forward/mesh/tetgen_reader.h"

#include <filesystem>

#include "forward/errors.h"
#include "forward/mesh/text_tokenizer.h"

namespace softfit {

namespace {

// Reads the points; returns the index base (0 or 1).
int readNodeFile(const std::string& path, TetMesh& mesh) {
  TextTokenizer in(path, '#');
  const long long n = in.count("the point count", 4);
  const long long dim = in.integer("the dimension");
  if (dim != 3) in.fail("unsupported dimension " + std::to_string(dim) + " (only 3D meshes are supported)");
  const long long attributes = in.count("the attribute count", 0);
  const long long markers = in.integer("the boundary-marker flag");
  if (markers != 0 && markers != 1) in.fail("boundary-marker flag must be 0 or 1, found " + std::to_string(markers));
  if (n == 0) in.fail("the .node file has no points");
  mesh.vertices.resize(n, 3);
  int base = 0;
  for (long long i = 0; i < n; ++i) {
    const std::string what = "point " + std::to_string(i + 1) + " of " + std::to_string(n);
    const long long index = in.integer(what.c_str());
    if (i == 0) {
      if (index != 0 && index != 1) in.fail("first point index must be 0 or 1, found " + std::to_string(index));
      base = static_cast<int>(index);
    } else if (index != base + i) {
      in.fail("point index " + std::to_string(index) + " where " + std::to_string(base + i) +
              " was expected (indices must be consecutive)");
    }
    for (int c = 0; c < 3; ++c) mesh.vertices(i, c) = in.real(what.c_str());
    for (long long a = 0; a < attributes; ++a) in.real((what + " (attribute)").c_str());
    if (markers) in.integer((what + " (boundary marker)").c_str());
    if (in.moreOnLine()) in.fail(what + ": unexpected extra values on the line (header announces " +
                                 std::to_string(attributes) + " attributes and " + std::to_string(markers) +
                                 " boundary markers)");
  }
  if (!in.atEnd()) {
    in.token("");
    in.fail("unexpected data after the " + std::to_string(n) + " points announced in the header");
  }
  return base;
}

void readEleFile(const std::string& path, int base, TetMesh& mesh) {
  TextTokenizer in(path, '#');
  const long long m = in.count("the tetrahedron count", 5);
  const long long perTet = in.integer("the nodes per tetrahedron");
  if (perTet != 4)
    in.fail("unsupported " + std::to_string(perTet) + "-node tetrahedra (only linear 4-node tets are supported)");
  const long long attributes = in.count("the region attribute count", 0);
  if (m == 0) in.fail("the .ele file has no tetrahedra");
  mesh.tets.resize(m, 4);
  const long long n = mesh.vertexCount();
  for (long long t = 0; t < m; ++t) {
    const std::string what = "tetrahedron " + std::to_string(t + 1) + " of " + std::to_string(m);
    in.integer(what.c_str());
    for (int c = 0; c < 4; ++c) {
      const long long index = in.integer(what.c_str());
      if (index < base || index >= base + n)
        in.fail(what + ": point index " + std::to_string(index) + " out of range " + std::to_string(base) + ".." +
                std::to_string(base + n - 1));
      mesh.tets(t, c) = static_cast<int>(index - base);
    }
    for (long long a = 0; a < attributes; ++a) in.real((what + " (attribute)").c_str());
    if (in.moreOnLine()) in.fail(what + ": unexpected extra values on the line");
  }
  if (!in.atEnd()) {
    in.token("");
    in.fail("unexpected data after the " + std::to_string(m) + " tetrahedra announced in the header");
  }
}

}  // namespace

TetMesh readTetgenMesh(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string ext = p.extension().string();
  if (ext != ".node" && ext != ".ele")
    throw InputError(path + ": a TetGen mesh is named by its .node or .ele file");
  std::filesystem::path nodePath = p, elePath = p;
  nodePath.replace_extension(".node");
  elePath.replace_extension(".ele");
  for (const auto& part : {nodePath, elePath})
    if (!std::filesystem::is_regular_file(part))
      throw InputError(path + ": cannot open " + part.string() +
                       " (missing or not a file; a TetGen mesh needs both the .node and the .ele file)");
  TetMesh mesh;
  mesh.source = path;
  const int base = readNodeFile(nodePath.string(), mesh);
  readEleFile(elePath.string(), base, mesh);
  validateTetMesh(mesh);
  return mesh;
}

}  // namespace softfit

#include "forward/mesh/medit_reader.h"

#include <cctype>

#include "forward/mesh/text_tokenizer.h"

namespace softfit {

namespace {

bool isKeyword(std::string_view token) { return !token.empty() && std::isalpha(static_cast<unsigned char>(token[0])); }

void readVertices(TextTokenizer& in, TetMesh& mesh) {
  const long long n = in.count("the Vertices count", 4);
  mesh.vertices.resize(n, 3);
  for (long long v = 0; v < n; ++v) {
    const std::string what = "vertex " + std::to_string(v + 1) + " of " + std::to_string(n);
    for (int c = 0; c < 3; ++c) mesh.vertices(v, c) = in.real(what.c_str());
    in.integer((what + " (reference)").c_str());
  }
}

void readTetrahedra(TextTokenizer& in, TetMesh& mesh) {
  const long long m = in.count("the Tetrahedra count", 5);
  mesh.tets.resize(m, 4);
  for (long long t = 0; t < m; ++t) {
    const std::string what = "tetrahedron " + std::to_string(t + 1) + " of " + std::to_string(m);
    for (int c = 0; c < 4; ++c) {
      const long long index = in.integer(what.c_str());
      if (index < 1 || index > mesh.vertexCount())
        in.fail(what + ": vertex index " + std::to_string(index) + " out of range 1.." +
                std::to_string(mesh.vertexCount()));
      mesh.tets(t, c) = static_cast<int>(index - 1);
    }
    in.integer((what + " (reference)").c_str());
  }
}

}  // namespace

TetMesh readMeditMesh(const std::string& path) {
  TextTokenizer in(path, '#');
  TetMesh mesh;
  mesh.source = path;

  in.expect("MeshVersionFormatted");
  const long long version = in.integer("the MeshVersionFormatted version");
  if (version < 1 || version > 4) in.fail("unsupported MEDIT version " + std::to_string(version) + " (expected 1 to 4)");
  in.expect("Dimension");
  const long long dim = in.integer("the dimension");
  if (dim != 3) in.fail("unsupported dimension " + std::to_string(dim) + " (only 3D meshes are supported)");

  bool haveVertices = false;
  bool haveTets = false;
  std::string_view keyword;
  bool pending = false;  // `keyword` already read while skipping a section
  while (pending || !in.atEnd()) {
    if (!pending) keyword = in.token("a section keyword");
    pending = false;
    if (keyword == "End") break;
    if (!isKeyword(keyword)) in.fail("expected a section keyword, found '" + std::string(keyword) + "'");
    if (keyword == "Vertices") {
      if (haveVertices) in.fail("second Vertices section");
      readVertices(in, mesh);
      haveVertices = true;
    } else if (keyword == "Tetrahedra") {
      if (haveTets) in.fail("second Tetrahedra section");
      if (!haveVertices) in.fail("Tetrahedra section before the Vertices section");
      readTetrahedra(in, mesh);
      haveTets = true;
    } else {
      // Unused section (Triangles, Edges, Corners, ...): count, then numbers up to the next keyword.
      in.count(("the " + std::string(keyword) + " count").c_str(), 0);
      while (!in.atEnd()) {
        const std::string_view next = in.token("section data");
        if (isKeyword(next)) {
          keyword = next;
          pending = true;
          break;
        }
      }
    }
  }
  if (!haveVertices) in.failFile("no Vertices section");
  if (!haveTets) in.failFile("no Tetrahedra section");
  validateTetMesh(mesh);
  return mesh;
}

}  // namespace softfit

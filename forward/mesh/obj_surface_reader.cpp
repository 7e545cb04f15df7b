#include "forward/mesh/obj_surface_reader.h"

#include <cmath>

#include <array>
#include <vector>

#include "forward/mesh/text_tokenizer.h"
#include "forward/value_limits.h"

namespace softfit {

namespace {

// Resolves one face corner "i[/t[/n]]" to a 0-based vertex index.
int cornerIndex(TextTokenizer& in, std::string_view corner, std::size_t vertexCount) {
  const std::string_view indexText = corner.substr(0, corner.find('/'));
  long long index = 0;
  if (!parseInteger(indexText, index))
    in.fail("malformed face vertex '" + std::string(corner) + "' (expected i, i/t, i//n or i/t/n)");
  const long long n = static_cast<long long>(vertexCount);
  const long long resolved = index > 0 ? index - 1 : n + index;  // negative: relative to the end
  if (index == 0 || resolved < 0 || resolved >= n)
    in.fail("face vertex index " + std::to_string(index) + " out of range (" + std::to_string(n) +
            " vertices defined so far)");
  return static_cast<int>(resolved);
}

}  // namespace

namespace {

TriangleSurface readObj(const std::string& path, bool requireFaces) {
  TextTokenizer in(path, '#');
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
  std::vector<int> polygon;
  while (!in.atEnd()) {
    const std::string_view keyword = in.token("an OBJ statement");
    if (keyword == "v") {
      Vec3 x;
      for (int c = 0; c < 3; ++c) {
        if (!in.moreOnLine()) in.fail("vertex with fewer than 3 coordinates");
        x[c] = in.real("a vertex coordinate");
        if (!std::isfinite(x[c])) in.fail("vertex coordinate is not finite");
        if (std::abs(x[c]) > kMaxCoordinate) in.fail("vertex coordinate beyond 1e12 in magnitude");
      }
      vertices.push_back(x);
    } else if (keyword == "f") {
      polygon.clear();
      while (in.moreOnLine()) polygon.push_back(cornerIndex(in, in.token("a face vertex"), vertices.size()));
      if (polygon.size() < 3) in.fail("face with " + std::to_string(polygon.size()) + " vertices (need at least 3)");
      for (std::size_t k = 1; k + 1 < polygon.size(); ++k) triangles.push_back({polygon[0], polygon[k], polygon[k + 1]});
    }
    in.skipRestOfLine();  // optional w / colours, and every statement we ignore
  }
  if (requireFaces && triangles.empty()) in.failFile("no faces ('f' statements) found");
  if (vertices.empty()) in.failFile("no vertices ('v' statements) found");

  TriangleSurface surface;
  surface.source = path;
  surface.vertices.resize(static_cast<Eigen::Index>(vertices.size()), 3);
  for (std::size_t i = 0; i < vertices.size(); ++i) surface.vertices.row(i) = vertices[i].transpose();
  surface.triangles.resize(static_cast<Eigen::Index>(triangles.size()), 3);
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int c = 0; c < 3; ++c) surface.triangles(t, c) = triangles[t][c];
  return surface;
}

}  // namespace

TriangleSurface readObjSurface(const std::string& path) { return readObj(path, true); }

PointMatrix readObjVertices(const std::string& path) { return readObj(path, false).vertices; }

}  // namespace softfit

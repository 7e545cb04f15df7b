#pragma once
// Reader for the triangle surface in a Wavefront OBJ file.
#include <string>

#include "forward/mesh/triangle_surface.h"
#include "forward/types.h"

namespace softfit {

// Reads `v x y z` vertices and `f` faces (index forms i, i/t, i//n, i/t/n; negative
// indices count back from the latest vertex); polygons are fan-triangulated from their
// first vertex; texture coordinates, normals, groups, materials, lines and points are
// ignored. All vertices are kept in file order. Returns the surface with .source = path.
// Throws InputError "<path>:<line>: ..." for a missing file, malformed numbers, faces with
// fewer than 3 vertices, out-of-range indices, or a file without faces.
// Vertex coordinates beyond kMaxCoordinate (forward/value_limits.h) are refused too.
TriangleSurface readObjSurface(const std::string& path);

// The vertices alone (a scan without faces is fine); the same errors, but faces are
// optional and at least one vertex is required.
PointMatrix readObjVertices(const std::string& path);

}  // namespace softfit

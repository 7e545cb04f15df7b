#pragma once
// Reader for STL triangle soups (ASCII or binary).
#include <string>

#include "forward/mesh/triangle_surface.h"

namespace softfit {

// Detects binary STL by its size (84 + 50 * triangle count bytes), otherwise parses
// ASCII (solid / facet normal / outer loop / vertex x3 / endloop / endfacet / endsolid).
// Vertices with bit-identical coordinates are merged (STL stores each triangle's corners
// separately); vertices are numbered in order of first appearance. Returns the surface
// with .source = path. Throws InputError naming the file (and line for ASCII) for a
// missing file, truncated or malformed content, non-finite coordinates, or no triangles.
TriangleSurface readStlSurface(const std::string& path);

}  // namespace softfit

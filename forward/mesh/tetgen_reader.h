#pragma once
// Reader for TetGen .node/.ele pairs.
#include <string>

#include "forward/mesh/tet_mesh.h"

namespace softfit {

// `path` names either file of the pair (foo.1.node or foo.1.ele); the other one is found
// by swapping the extension. '#' starts a comment; indices are 0- or 1-based as given by
// the first point index in the .node file; point attributes, boundary markers and tet
// region attributes are accepted and ignored. Returns the mesh with .source = path.
// Throws InputError "<file>:<line>: ..." for missing files, malformed or truncated
// content, non-consecutive point indices, out-of-range indices, second-order (10-node)
// tets, and (via validateTetMesh) inverted or degenerate tets.
TetMesh readTetgenMesh(const std::string& path);

}  // namespace softfit

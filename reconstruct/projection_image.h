#pragma once
// The report's picture: silhouettes of the reconstructed rest surface and (optionally) the
// true one, projected along the ground normal (top view, left) and along a horizontal
// axis (side view, right), on one PNG (optim/report/raster_image.h). Red: reconstruction only,
// blue: truth only, grey: both. Axes: up = the ground normal n, a = n.unitOrthogonal(),
// b = n x a; top view (a . x, b . x), side view (a . x, n . x); one scale for both panels.
#include <string>

#include "forward/mesh/triangle_surface.h"

namespace softfit {

// `truth` may be empty (no triangles). InputError naming `path` when it cannot be written.
void writeProjectionImage(const std::string& path, const TriangleSurface& reconstructed, const TriangleSurface& truth,
                          const Vec3& groundNormal);

}  // namespace softfit

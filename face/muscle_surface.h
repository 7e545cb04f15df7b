#pragma once
// Muscle volumes given as closed triangle surfaces: inside test by the generalized
// winding number (robust to small gaps and either orientation) and the distance of points
// to a muscle (0 inside), which build the allowed set and the containment start of S.
#include <vector>

#include "face/face_model.h"
#include "forward/mesh/triangle_surface.h"

namespace softfit::face {

// Winding number of the closed surface around p (about +-1 inside, 0 outside).
double windingNumber(const TriangleSurface& surface, const Vec3& p);

// Distance of each point to the muscle volume: 0 when |winding| > 1/2, else the
// distance to the surface.
VecX distancesToVolume(const TriangleSurface& surface, const std::vector<Vec3>& points);

// S for `mesh` from muscle surfaces: tet centroids inside a muscle start in it, muscles
// within `radius` of a centroid are allowed (geometryFromDistances).
MuscleGeometry geometryFromSurfaces(const TetMesh& mesh, const std::vector<TriangleSurface>& muscles,
                                    double radius);

}  // namespace softfit::face

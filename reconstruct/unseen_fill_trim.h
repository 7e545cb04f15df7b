#pragma once
// Space carving (tsdf_fusion.h) keeps inside every voxel in the object's own shadow that
// no camera sees past: under a body that rests on its feet (the bunny's belly) or in the
// wedge between a curved side and the floor (a torus' tube) it fills down to the floor.
// This closes what no camera saw by the generalized winding number of the part of the
// fused surface that the rest points confirm (Jacobson, Kavan & Sorkine-Hornung 2013,
// "Robust Inside-Outside Segmentation using Generalized Winding Numbers"): the seen
// surface's holes are spanned by the harmonic membrane of its rims rather than by the
// cameras' shadows.
//  - A triangle of `surface` (the zero surface of `volume`, e.g. refined onto the
//    points) is seen when a point of `seenPoints` lies within `seenDistance` of its
//    centroid.
//  - An inside sample at least `groundBand + floorMargin` above the ground, farther than `seenDistance`
//    from every point and outside the seen surface (winding number < 1/2) becomes
//    outside (+h/2); the inside samples next to it are clamped to -h/2, so that marching
//    cubes puts the new face half way between them.
//  - The band below `groundBand` (which the images cannot tell from the floor) copies the
//    sample straight above it again (then clipped at the ground, as in the fusion), and
//    only the largest inside region is kept. Nothing changes when no sample is trimmed.
// Seen faces and every sample near a point are left as they were. Deterministic.
#include <vector>

#include "forward/mesh/triangle_surface.h"
#include "grid/sdf_volume.h"
#include "observations/point_cloud.h"

namespace softfit {

struct UnseenFillOptions {
  double seenDistance = 0.0;  // metres; 0 = 1.5 sample spacings
  Vec3 groundNormal = Vec3::UnitY();
  double groundOffset = 0.0;
  double groundBand = 0.0;  // metres above the ground (0 = no band)
  // Samples less than groundBand + floorMargin above the ground stay as they are: where
  // the seen sides reach down to the closing plane, their rim (a refined, slightly
  // rounded edge) lies a little above it and its membrane would shave a slab off.
  double floorMargin = 0.0;
  bool clipAtGround = true;  // after the band copy: phi = max(phi, -(n . x + offset)), as the fusion does
};

struct UnseenFillResult {
  int seenTriangles = 0;
  int unseenTriangles = 0;
  int trimmedSamples = 0;  // inside samples outside the seen surface, made outside
  int removedSamples = 0;  // change of the inside count (band copies and islands included)
};

// Throws InputError for an empty surface or point cloud, or a negative distance or band.
// `trimmable` (per sample of `volume`, or empty for all): only these samples may be
// trimmed (the fusion's shadow fill, FusionResult::shadowFilled).
UnseenFillResult trimUnseenFill(SdfVolume& volume, const TriangleSurface& surface, const PointCloud& seenPoints,
                                const std::vector<char>& trimmable, const UnseenFillOptions& options);

}  // namespace softfit

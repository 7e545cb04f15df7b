#pragma once
// Static scenery for realistic synthetic depth images (`softfit synth --background`): a
// floor, a back wall and two boxes of clutter around the simulated body, as triangles
// that are ray cast together with the body's surface. Only the depth images see them;
// the simulation never does.
//
// Geometry (r = half the diagonal of the body's bounding box over the whole motion,
// c = its centre, n = the floor's unit normal, e1, e2 a fixed frame perpendicular to n):
//  - floor: the scene's ground plane n.x + offset = 0 when it has one, else the plane
//    perpendicular to `up` 0.5 r below the lowest body corner and camera; a rectangle
//    around the foot point p0 of c, reaching 3 D + 2 r from p0 (D = the largest camera
//    distance from c), cut off at the wall;
//  - back wall: perpendicular to e1 at W = max(2 r, largest camera offset along e1 + 0.5 r)
//    from p0 (behind every camera on that side), from the floor to max(3 r, highest
//    camera + r);
//  - clutter: two floor-standing boxes with footprint s x s, s = 0.6 r, heights 0.8 s and
//    1.4 s, footprint centres at horizontal distance 1.4 r + 0.75 s from c: every box
//    point is at least 1.4 r + 0.75 s - 0.71 s > 1.4 r from c horizontally, so no box
//    touches the body (which stays within r of c). Each box stands at the one of 24
//    azimuths (about n, from e1; the first on ties) farthest from the azimuths of the
//    cameras (those more than 0.5 r off the vertical through c) and of the box before,
//    so that the clutter stands between the cameras rather than in front of one.
// Deterministic; triangles are two-sided for the ray caster.
#include <vector>

#include "observations/camera.h"

namespace softfit {

struct StaticGeometry {
  VecX positions;            // flat 3N
  TriangleMatrix triangles;  // indices into positions
};

struct BackgroundOptions {
  bool hasGround = false;              // use the plane below; else a floor below body and cameras
  Vec3 groundNormal = Vec3(0, 1, 0);   // the scene's ground: n.x + offset = 0 (n pointing to the free side)
  double groundOffset = 0.0;
  Vec3 up = Vec3(0, 1, 0);             // floor normal when there is no ground
};

// Throws InputError when the box is not finite or min > max, or a normal is zero.
StaticGeometry makeStaticBackground(const Vec3& bodyMin, const Vec3& bodyMax, const std::vector<Camera>& cameras,
                                    const BackgroundOptions& options);

// Appends `geometry` to a surface (positions flat 3N, triangles re-indexed).
void appendStaticGeometry(const StaticGeometry& geometry, VecX& positions, TriangleMatrix& triangles);

}  // namespace softfit

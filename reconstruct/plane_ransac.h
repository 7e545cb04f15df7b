#pragma once
// Robust plane fits by RANSAC (Fischler & Bolles 1981, "Random Sample Consensus", CACM
// 24(6)) with per-point inlier tolerances (k sigma of each point's depth noise), then a
// least-squares refit (total least squares: the plane through the inliers' centroid
// normal to the smallest principal axis) and re-selection of the inliers, twice.
//
// Written here rather than Open3D's PointCloud::SegmentPlane: Open3D 0.16 runs its
// RANSAC iterations inside an OpenMP parallel loop that draws its samples from one shared
// generator under a lock (no seed argument; checked in the 0.16.1 binary: GOMP_parallel +
// GOMP_critical in SegmentPlane), so which samples are tried depends on thread timing.
// Here the samples come from one mt19937_64 with a fixed seed, drawn serially: the same
// points give the same plane, bit for bit. Double precision throughout.
#include <cstdint>
#include <vector>

#include "forward/types.h"
#include "observations/point_cloud.h"

namespace softfit {

struct PlaneRansacOptions {
  int iterations = 400;
  std::uint64_t seed = 1;
  double toleranceScale = 3.0;  // inlier: |distance| <= toleranceScale * sigma_i
  int scoredPoints = 40000;     // hypotheses are scored on every ceil(N / this)-th point; refits use all
};

struct FittedPlane {
  Vec3 normal = Vec3::UnitY();  // unit
  double offset = 0.0;          // dist(x) = normal . x + offset
  std::vector<int> inliers;     // ascending point indices
};

// The plane with the most inliers. `sigmas` (one per point, > 0) are the points' noise.
// Throws InputError when there are fewer than 3 points or no three are independent.
FittedPlane fitPlaneRansac(const PointMatrix& points, const std::vector<double>& sigmas,
                           const PlaneRansacOptions& options = {});

// The ground: the largest plane on whose side `freeSide` lies, whose normal is within
// maxTiltDegrees of `up` or, given the cameras' image x axes (`levelAxes`: a camera
// without roll has it horizontal), perpendicular to each of them within 20 degrees and
// within 80 degrees of `up` (one camera pitched far down sees the floor that way), found by
// fitting the largest plane, and while it is not such a plane removing its inliers and
// fitting again (at most maxPlanes planes: walls are large too). The normal is oriented
// so that `freeSide` (e.g. the cameras' centroid) has positive distance. Throws
// InputError (prefixed with `context`) when no such plane is found.
FittedPlane fitGroundPlane(const PointMatrix& points, const std::vector<double>& sigmas, const Vec3& up,
                           const Vec3& freeSide, const std::string& context, const PlaneRansacOptions& options = {},
                           double maxTiltDegrees = 30.0, int maxPlanes = 4,
                           const std::vector<Vec3>& levelAxes = {});

}  // namespace softfit

#pragma once
// Rigid registration of observed points to a closed rest surface (point-to-plane ICP).
//
// Each observed point y is mapped into the rest frame, x = R^T (y - t), paired with the
// nearest vertex z of the rest surface and its normal n, and the pose is moved by
// Gauss-Newton steps on sum (n . (x - z))^2 (Chen and Medioni 1992; the linearized
// rotation as in Low 2004, "Linear Least-Squares Optimization for Point-to-Plane ICP").
// Because the target is the whole rest surface, not another partial view, every observed
// point has its true counterpart whichever side of the body a camera sees: the partial
// views of a spinning body register without bias. Pairs farther apart than `rejectFactor`
// x the median pair distance (at least `minRejectDistance`) are dropped in each iteration
// (segmentation leftovers, a deformed part).
//
// Nearest neighbours through Open3D's KDTreeFlann (single queries, in point order: the
// result does not depend on threads or timing).
#include <memory>

#include "forward/mesh/triangle_surface.h"
#include "forward/types.h"

namespace softfit {

// world = rotation * rest + translation.
struct RigidPose {
  Mat3 rotation = Mat3::Identity();
  Vec3 translation = Vec3::Zero();

  Vec3 apply(const Vec3& rest) const { return rotation * rest + translation; }
};

struct SurfaceRegistrationOptions {
  int maxPoints = 4000;  // the observed points are subsampled (every k-th) to this many
  int iterations = 40;
  double rejectFactor = 3.0;
  double minRejectDistance = 0.005;  // m
};

struct SurfaceRegistrationResult {
  RigidPose pose;
  double rms = 0.0;  // RMS point-to-plane distance of the kept pairs (m)
  int pointsUsed = 0;
};

class SurfaceRegistration {
 public:
  // `rest`: a closed triangle surface (vertex normals are taken from its triangles).
  // Throws std::invalid_argument for a surface without triangles.
  explicit SurfaceRegistration(const TriangleSurface& rest);
  ~SurfaceRegistration();
  SurfaceRegistration(const SurfaceRegistration&) = delete;
  SurfaceRegistration& operator=(const SurfaceRegistration&) = delete;

  // The pose that carries the rest surface onto `points` (N x 3, world), from `start`.
  // Fewer than 6 points: `start` unchanged, rms 0, pointsUsed 0.
  SurfaceRegistrationResult align(const PointMatrix& points, const RigidPose& start,
                                  const SurfaceRegistrationOptions& options = {}) const;

 private:
  struct Tree;
  std::unique_ptr<Tree> tree_;
  MatX normals_;  // 3 x vertices, unit
  MatX vertices_;  // 3 x vertices
};

}  // namespace softfit

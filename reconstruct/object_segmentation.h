#pragma once
// Mask-free segmentation of one frame's points into the object and everything else.
//
// Rule, in this order, for a point p with depth noise sigma (reconstruct/depth_noise.h)
// and height h = n . p + offset above the ground plane:
//  1. BelowGround: h < -k sigma;  Ground: |h| <= k sigma + groundMargin (k = groundSigmas).
//  2. StaticBackground: flagged by the caller (the pixel is not the object in any rest
//     frame and measures the rest frames' depth there within the noise; see
//     capture_segmentation.h).
//  3. OutsideWorkspace: outside the workspace cylinder: horizontal distance (along the
//     ground) from the workspace centre above `radius`, or h above `height`.
//  4. Outlier: Open3D's statistical outlier removal (mean distance to the
//     `outlierNeighbours` nearest neighbours above the mean + outlierStd standard
//     deviations; Rusu et al. 2008, "Towards 3D point cloud based object maps for
//     household environments").
//  5. The rest is split into connected components by Open3D's DBSCAN (Ester et al.
//     1996; eps = clusterRadius, clusterMinPoints); the object is the component with a
//     point nearest to `seed` (the cameras' shared view centre in rest frames, the
//     previous frame's object centroid in motion frames). Other components and DBSCAN
//     noise: OtherComponent.
// Open3D computes in double here; its neighbour searches are exact, so the labels are
// deterministic (ties in the cluster choice go to the lower Open3D label).
#include <cstdint>
#include <vector>

#include "forward/types.h"
#include "observations/point_cloud.h"

namespace softfit {

// Silhouette: an object pixel of a motion frame with a 4-neighbour that is not the
// object (capture_segmentation.h, CaptureSegmentationOptions::dropMotionSilhouettes).
enum class PointLabel : std::uint8_t {
  Object, Ground, BelowGround, StaticBackground, OutsideWorkspace, Outlier, OtherComponent, Silhouette
};

struct Workspace {
  Vec3 centre = Vec3::Zero();  // the cameras' shared view centre
  double radius = 1.0;         // horizontal reach from the centre
  double height = 2.0;         // highest point above the ground
};

struct SegmentationOptions {
  double groundSigmas = 3.0;
  double groundMargin = 0.0;    // metres added to the ground band
  int outlierNeighbours = 16;
  double outlierStd = 2.5;
  double clusterRadius = 0.02;  // DBSCAN eps (metres)
  int clusterMinPoints = 4;
};

struct FrameSegmentation {
  std::vector<PointLabel> labels;  // one per point
  int objectCount = 0;
  Vec3 objectCentroid = Vec3::Zero();  // of the object points (zero when none)
};

// `staticBackground` may be empty (no point flagged).
FrameSegmentation segmentObject(const PointMatrix& points, const std::vector<double>& sigmas,
                                const std::vector<bool>& staticBackground, const Vec3& groundNormal,
                                double groundOffset, const Workspace& workspace, const Vec3& seed,
                                const SegmentationOptions& options);

}  // namespace softfit

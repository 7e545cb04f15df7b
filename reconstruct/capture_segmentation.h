#pragma once
// Segments every frame of a raw depth capture (reconstruct/raw_depth_frames.h):
//  1. flying pixels are removed on each image grid (flying_pixel_filter.h);
//  2. the ground plane is fitted to the points of all rest frames and cameras
//     (plane_ransac.h: up = the mean of the cameras' image-up directions, normal
//     oriented towards the cameras' centroid, tolerance 3 sigma of each point);
//  3. the workspace: centre = the point nearest (least squares) to every camera's
//     optical axis (the cameras' shared view centre), radius = half the smallest
//     camera-to-centre distance, height = twice that;
//  4. each rest frame is segmented (object_segmentation.h) with the centre as seed; the
//     object must be found (>= minObjectPoints points) in every rest frame, and its
//     centroid must stay within max(restMotionFraction x rest frame 0's bounding-box
//     diagonal, one pixel footprint at the object) of rest frame 0's (else the object
//     moved while "at rest"); then, the object being still, rest-frame depths that
//     disagree across the rest frames (mixed pixels) are removed
//     (rest_pixel_consistency.h) and the rest frames segmented again;
//  5. static background, per camera and pixel: with "background_frames" (the empty
//     scene), a pixel of any rest or motion frame is background when its depth matches
//     background frame 0's within 3 sqrt(2) sigma; without them, a motion-frame pixel
//     is background when the pixel is not the object in any rest frame and its depth
//     matches rest frame 0's within 3 sqrt(2) sigma (the same static surface; the object
//     passing in front changes the depth);
//  6. each motion frame is segmented with the previous frame's object centroid (the
//     rest centroid for frame 0) as seed, and its object pixels on the object's image
//     boundary are dropped (dropMotionSilhouettes: mixed and jittered edge depths). A
//     motion frame may lose the object (no points).
// Errors name capture.json, the frame and its images.
#include <vector>

#include "reconstruct/object_segmentation.h"
#include "reconstruct/plane_ransac.h"
#include "reconstruct/raw_depth_frames.h"
#include "reconstruct/depth_noise.h"
#include "reconstruct/flying_pixel_filter.h"
#include "reconstruct/rest_pixel_consistency.h"

namespace softfit {

// One image's measured pixels, back-projected.
struct ViewPoints {
  int camera = 0;
  std::vector<int> pixels;  // v * width + u of each point
  PointMatrix points;       // world
  std::vector<double> sigmas;
};

ViewPoints backProjectView(const Camera& camera, int cameraIndex, const DepthMap& depth, const DepthNoise& noise);

struct SegmentedView {
  ViewPoints points;
  std::vector<PointLabel> labels;
};

// Relabels as Silhouette the Object pixels of `view` (a view of `depth`) that have a
// 4-neighbour, or the image border, that is not the object: at a depth edge the sensor
// mixes foreground and background (flying pixels) and jitters the edge sideways, and
// what the single-image filter keeps of that lies behind the surface. The interior
// points need no silhouette.
void labelSilhouettes(const DepthMap& depth, SegmentedView& view);

struct SegmentedFrame {
  std::vector<SegmentedView> views;
  PointCloud object;                // the object's points, all cameras
  std::vector<double> objectSigmas; // their depth noise
  Vec3 centroid = Vec3::Zero();
};

struct CaptureSegmentationOptions {
  CaptureSegmentationOptions() { segmentation.clusterRadius = 0.0; }
  SegmentationOptions segmentation;  // clusterRadius <= 0: from the data (see below)
  FlyingPixelOptions flying;
  RestPixelConsistencyOptions restConsistency;
  // Motion frames: object pixels on the object's image boundary are left out of the
  // observations (PointLabel::Silhouette). Rest frames keep them (they close the shape).
  bool dropMotionSilhouettes = true;
  PlaneRansacOptions ransac;
  int minObjectPoints = 20;
  double restMotionFraction = 0.03;
  // clusterRadius <= 0: max(3 pixel footprints, 4 sigma) at the median rest depth.
  double clusterFootprints = 3.0;
};

struct CaptureSegmentation {
  FittedPlane ground;
  Workspace workspace;
  std::vector<SegmentedFrame> restFrames, frames;
  int flyingPixels = 0;  // removed over all images
  int inconsistentRestDepths = 0;  // rest-frame depths removed by rest_pixel_consistency.h
  Vec3 restLo = Vec3::Zero(), restHi = Vec3::Zero();  // bounding box of every rest frame's object points
  double clusterRadius = 0.0;
};

// Filters `capture`'s images in place (flying pixels) and segments every frame.
CaptureSegmentation segmentCapture(RawDepthCapture& capture, const DepthNoise& noise,
                                   const CaptureSegmentationOptions& options = {});

}  // namespace softfit

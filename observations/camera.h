#pragma once
// Pinhole camera model shared by the virtual depth cameras and the depth-image readers.
//
// Conventions (OpenCV): the camera frame has +x to the right of the image, +y down and
// +z along the viewing direction. Pixel (u, v) is column u, row v; integer coordinates
// are pixel centres, so pixel (u, v) looks along the camera-frame direction
// ((u - cx) / fx, (v - cy) / fy, 1). Depth is the camera-frame z of the hit point (not
// the distance along the ray), so the point seen at depth d is
// position + rotation * (d * ((u - cx) / fx, (v - cy) / fy, 1)).
#include <string>

#include "forward/types.h"

namespace softfit {

struct CameraIntrinsics {
  double fx = 1.0, fy = 1.0;  // focal lengths in pixels
  double cx = 0.0, cy = 0.0;  // principal point in pixels
  int width = 0, height = 0;  // image size in pixels
};

struct Camera {
  CameraIntrinsics intrinsics;
  Mat3 rotation = Mat3::Identity();  // camera-to-world: columns are the camera axes in world
  Vec3 position = Vec3::Zero();      // camera centre in world coordinates
  std::string name;                  // optional label (cams.json "name")

  // Camera-frame direction of pixel (u, v) (its z component is 1).
  Vec3 pixelDirectionCamera(double u, double v) const;
  // World-frame direction of pixel (u, v) (not normalized; camera-frame z = 1).
  Vec3 pixelDirectionWorld(double u, double v) const { return rotation * pixelDirectionCamera(u, v); }
  // World point seen at pixel (u, v) at depth d.
  Vec3 backProject(double u, double v, double depth) const { return position + depth * pixelDirectionWorld(u, v); }
  // Camera-frame coordinates of a world point.
  Vec3 toCamera(const Vec3& world) const { return rotation.transpose() * (world - position); }
  // 4x4 camera-to-world matrix [R t; 0 0 0 1].
  Eigen::Matrix4d cameraToWorld() const;
};

// The largest image a camera may have (10000 x 10000): renders allocate per pixel.
constexpr long long kMaxCameraPixels = 100'000'000;

// Throws InputError prefixed with `context` when a focal length is not positive, the
// principal point is not finite, width / height is below 1 (requireSize) or negative,
// or the image has more than kMaxCameraPixels pixels.
void validateIntrinsics(const CameraIntrinsics& intrinsics, const std::string& context, bool requireSize = true);

// Throws InputError prefixed with `context` unless `rotation` is a proper rotation
// (orthonormal within 1e-6, determinant +1) and `position` is finite.
void validatePose(const Mat3& rotation, const Vec3& position, const std::string& context);

// Camera at `eye` looking at `target`, with the image's "up" (-y) as close to `up` as
// possible. Throws InputError prefixed with `context` when eye == target or `up` is
// parallel to the viewing direction.
Camera lookAtCamera(const CameraIntrinsics& intrinsics, const Vec3& eye, const Vec3& target, const Vec3& up,
                    const std::string& context = "look_at");

// Intrinsics of a width x height image with the given field of view (degrees) across
// the smaller image dimension, square pixels and the principal point at the image centre
// ((width - 1) / 2, (height - 1) / 2).
CameraIntrinsics intrinsicsFromFieldOfView(int width, int height, double fieldOfViewDegrees);

}  // namespace softfit

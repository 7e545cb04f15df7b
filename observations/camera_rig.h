#pragma once
// Several virtual cameras placed around a bounding box, all looking at its centre.
#include <vector>

#include "observations/camera.h"

namespace softfit {

enum class CameraLayout {
  Sphere,      // evenly spread over the whole sphere (Fibonacci lattice)
  Hemisphere,  // evenly spread over the half sphere on the `up` side
  Ring,        // evenly spaced azimuths at a fixed elevation above the plane normal to `up`
};

struct CameraRigOptions {
  CameraLayout layout = CameraLayout::Sphere;
  int width = 100, height = 100;     // image size in pixels
  double fieldOfViewDegrees = 50.0;  // across the smaller image dimension
  double margin = 1.15;              // distance = margin * radius / sin(fov / 2) (> 1 keeps the box in view)
  double elevationDegrees = 25.0;    // Ring only
  Vec3 up = Vec3(0, 1, 0);           // world "up" (also the cameras' image up)
};

// `count` cameras around the box [boxMin, boxMax], far enough for its bounding sphere
// to fit in every image. Deterministic. Throws InputError when count < 1, the box is
// not finite or has min > max, or an option is out of range.
std::vector<Camera> camerasAroundBox(const Vec3& boxMin, const Vec3& boxMax, int count,
                                     const CameraRigOptions& options = {});

// Bounding box of the nodes of a flat 3N position vector (throws InputError when empty).
void boundingBox(const VecX& positions, Vec3& boxMin, Vec3& boxMax);

}  // namespace softfit

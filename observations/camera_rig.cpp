#include "observations/camera_rig.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>
#include <string>

#include "forward/errors.h"
#include "observations/point_cloud.h"

namespace softfit {

std::vector<Camera> camerasAroundBox(const Vec3& boxMin, const Vec3& boxMax, int count,
                                     const CameraRigOptions& options) {
  if (count < 1) throw InputError("camera rig: count must be at least 1");
  if (!boxMin.allFinite() || !boxMax.allFinite() || (boxMin.array() > boxMax.array()).any())
    throw InputError("camera rig: invalid bounding box");
  if (!(options.margin >= 1.0)) throw InputError("camera rig: margin must be at least 1");
  if (!(options.up.norm() > 0.0) || !options.up.allFinite()) throw InputError("camera rig: up must be non-zero");
  if (!(std::abs(options.elevationDegrees) < 90.0)) throw InputError("camera rig: elevation must be in (-90, 90)");
  const CameraIntrinsics k = intrinsicsFromFieldOfView(options.width, options.height, options.fieldOfViewDegrees);

  const Vec3 center = 0.5 * (boxMin + boxMax);
  double radius = 0.5 * (boxMax - boxMin).norm();
  if (radius == 0.0) radius = 1.0;
  const double half = 0.5 * options.fieldOfViewDegrees * M_PI / 180.0;
  const double distance = options.margin * radius / std::sin(half);

  // Orthonormal frame (e1, e2, up).
  const Vec3 up = options.up.normalized();
  const Vec3 helper = std::abs(up.x()) < 0.9 ? Vec3(1, 0, 0) : Vec3(0, 0, 1);
  const Vec3 e1 = up.cross(helper).normalized();
  const Vec3 e2 = up.cross(e1);

  const double golden = M_PI * (3.0 - std::sqrt(5.0));
  std::vector<Camera> cameras;
  for (int i = 0; i < count; ++i) {
    double h = 0.0, azimuth = 0.0;  // height along up in [-1, 1], azimuth
    switch (options.layout) {
      case CameraLayout::Sphere:
        h = 1.0 - 2.0 * (i + 0.5) / count;
        azimuth = golden * i;
        break;
      case CameraLayout::Hemisphere:
        h = 1.0 - (i + 0.5) / count;
        azimuth = golden * i;
        break;
      case CameraLayout::Ring:
        h = std::sin(options.elevationDegrees * M_PI / 180.0);
        azimuth = 2.0 * M_PI * i / count;
        break;
    }
    const double r = std::sqrt(std::max(0.0, 1.0 - h * h));
    const Vec3 dir = r * (std::cos(azimuth) * e1 + std::sin(azimuth) * e2) + h * up;
    const Vec3 eye = center + distance * dir;
    // Near the poles the image-up hint falls back to e1 (never parallel to the view).
    const Vec3 hint = std::abs(h) > 0.999 ? e1 : up;
    Camera cam = lookAtCamera(k, eye, center, hint, "camera rig");
    cam.name = "cam" + std::to_string(i);
    cameras.push_back(cam);
  }
  return cameras;
}

void boundingBox(const VecX& positions, Vec3& boxMin, Vec3& boxMax) {
  if (positions.size() < 3 || positions.size() % 3 != 0)
    throw InputError("bounding box: positions must be a non-empty flat 3N vector");
  const auto pts = Eigen::Map<const PointMatrix>(positions.data(), positions.size() / 3, 3);
  boxMin = pts.colwise().minCoeff().transpose();
  boxMax = pts.colwise().maxCoeff().transpose();
}

}  // namespace softfit

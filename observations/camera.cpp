#include "observations/camera.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <sstream>
#include <string>

#include "forward/errors.h"

namespace softfit {

Vec3 Camera::pixelDirectionCamera(double u, double v) const {
  return Vec3((u - intrinsics.cx) / intrinsics.fx, (v - intrinsics.cy) / intrinsics.fy, 1.0);
}

Eigen::Matrix4d Camera::cameraToWorld() const {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() = rotation;
  m.topRightCorner<3, 1>() = position;
  return m;
}

void validateIntrinsics(const CameraIntrinsics& k, const std::string& context, bool requireSize) {
  // In pixels: a focal length of 1e7 pixels is a 1e-4 degree field of view.
  constexpr double kMaxPixels = 1e7;
  if (!(k.fx > 0.0 && k.fx <= kMaxPixels)) throw InputError(context + ": fx must lie in (0, 1e7] pixels");
  if (!(k.fy > 0.0 && k.fy <= kMaxPixels)) throw InputError(context + ": fy must lie in (0, 1e7] pixels");
  if (!(std::abs(k.cx) <= kMaxPixels)) throw InputError(context + ": cx must be finite, at most 1e7 pixels");
  if (!(std::abs(k.cy) <= kMaxPixels)) throw InputError(context + ": cy must be finite, at most 1e7 pixels");
  const int minimum = requireSize ? 1 : 0;
  if (k.width < minimum) throw InputError(context + ": width must be at least " + std::to_string(minimum));
  if (k.height < minimum) throw InputError(context + ": height must be at least " + std::to_string(minimum));
  if (static_cast<long long>(k.width) * k.height > kMaxCameraPixels)
    throw InputError(context + ": width x height = " + std::to_string(k.width) + " x " + std::to_string(k.height) +
                     " is more than " + std::to_string(kMaxCameraPixels) + " pixels");
}

void validatePose(const Mat3& rotation, const Vec3& position, const std::string& context) {
  if (!rotation.allFinite() || !position.allFinite()) throw InputError(context + ": camera pose must be finite");
  const double orthoError = (rotation.transpose() * rotation - Mat3::Identity()).cwiseAbs().maxCoeff();
  if (orthoError > 1e-6 || rotation.determinant() < 0.0) {
    std::ostringstream msg;
    msg << context << ": camera rotation is not a proper rotation (|R^T R - I| = " << orthoError
        << ", det = " << rotation.determinant() << ")";
    throw InputError(msg.str());
  }
}

Camera lookAtCamera(const CameraIntrinsics& intrinsics, const Vec3& eye, const Vec3& target, const Vec3& up,
                    const std::string& context) {
  if (!eye.allFinite() || !target.allFinite() || !up.allFinite())
    throw InputError(context + ": eye, target and up must be finite");
  const Vec3 forward = target - eye;
  if (!(forward.norm() > 0.0)) throw InputError(context + ": eye and target coincide");
  const Vec3 z = forward.normalized();
  const Vec3 side = z.cross(up);
  if (!(side.norm() > 1e-12 * up.norm()) || up.norm() == 0.0)
    throw InputError(context + ": up is zero or parallel to the viewing direction");
  const Vec3 x = side.normalized();
  const Vec3 y = z.cross(x);
  Camera cam;
  cam.intrinsics = intrinsics;
  cam.rotation.col(0) = x;
  cam.rotation.col(1) = y;
  cam.rotation.col(2) = z;
  cam.position = eye;
  return cam;
}

CameraIntrinsics intrinsicsFromFieldOfView(int width, int height, double fieldOfViewDegrees) {
  if (width < 1 || height < 1) throw InputError("camera: width and height must be at least 1");
  if (!(fieldOfViewDegrees > 0.0 && fieldOfViewDegrees < 180.0))
    throw InputError("camera: field of view must be in (0, 180) degrees");
  const double half = 0.5 * fieldOfViewDegrees * M_PI / 180.0;
  CameraIntrinsics k;
  k.width = width;
  k.height = height;
  k.fx = k.fy = 0.5 * std::min(width, height) / std::tan(half);
  k.cx = 0.5 * (width - 1);
  k.cy = 0.5 * (height - 1);
  return k;
}

}  // namespace softfit

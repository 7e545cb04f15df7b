#include "reconstruct/tsdf_fusion.h"

#include <open3d/camera/PinholeCameraIntrinsic.h>
#include <open3d/geometry/Image.h>
#include <open3d/geometry/RGBDImage.h>
#include <open3d/pipelines/integration/UniformTSDFVolume.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "forward/errors.h"
#include "reconstruct/sdf_volume_cleanup.h"

namespace softfit {

namespace {

open3d::geometry::RGBDImage toRgbd(const DepthMap& depth) {
  open3d::geometry::Image color, d;
  color.Prepare(depth.width, depth.height, 3, 1);
  std::fill(color.data_.begin(), color.data_.end(), 0);
  d.Prepare(depth.width, depth.height, 1, 4);
  for (int v = 0; v < depth.height; ++v)
    for (int u = 0; u < depth.width; ++u) *d.PointerAt<float>(u, v) = static_cast<float>(depth.at(u, v));
  return open3d::geometry::RGBDImage(color, d);
}

struct VoxelEvidence {
  bool carved = false;    // some camera sees past the voxel
  bool shadowed = false;  // some camera sees the object at or in front of the voxel's centre
};

// carved: for some camera, at least carveFraction of the measured pixels within the
// projection of the ball inscribed in x's voxel (radius h / 2, at least the nearest
// pixel; the circumscribed ball's rays pass below voxels near the floor and meet the
// floor in front of them) have a depth D with x's camera depth z < D - (3 sigma(D) + h).
// carveFraction 1 never carves a voxel that part of a pixel's footprint still sees as
// the object (dilates silhouettes by up to half a voxel), 1/2 erodes them by about as
// much (TSDF sphere test: +0.6% and -7% volume); 3/4 is between (-0.9%).
// shadowed: for some camera, x's nearest pixel is an object pixel with depth < z + h.
VoxelEvidence voxelEvidence(const std::vector<FusionView>& views, const DepthNoise& noise, const Vec3& x, double voxel,
                            double carveFraction) {
  VoxelEvidence e;
  for (const FusionView& view : views) {
    const Vec3 c = view.camera.toCamera(x);
    if (!(c.z() > 0.0)) continue;
    const CameraIntrinsics& k = view.camera.intrinsics;
    const double u = k.fx * c.x() / c.z() + k.cx, v = k.fy * c.y() / c.z() + k.cy;
    const int un = static_cast<int>(std::lround(u)), vn = static_cast<int>(std::lround(v));
    if (un >= 0 && vn >= 0 && un < view.objectDepth.width && vn < view.objectDepth.height) {
      const double d = view.objectDepth.at(un, vn);
      if (d > 0.0 && d < c.z() + voxel) e.shadowed = true;
    }
    const double ru = 0.5 * voxel * k.fx / c.z(), rv = 0.5 * voxel * k.fy / c.z();
    const int u0 = static_cast<int>(std::lround(u - ru)), u1 = static_cast<int>(std::lround(u + ru));
    const int v0 = static_cast<int>(std::lround(v - rv)), v1 = static_cast<int>(std::lround(v + rv));
    if (u1 < 0 || v1 < 0 || u0 >= view.fullDepth.width || v0 >= view.fullDepth.height) continue;
    int measured = 0, pastCount = 0;
    for (int b = std::max(v0, 0); b <= std::min(v1, view.fullDepth.height - 1); ++b)
      for (int a = std::max(u0, 0); a <= std::min(u1, view.fullDepth.width - 1); ++a) {
        const double d = view.fullDepth.at(a, b);
        if (!(d > 0.0)) continue;
        ++measured;
        if (c.z() < d - (3.0 * noise.sigma(d) + voxel)) ++pastCount;
      }
    if (measured > 0 && pastCount >= carveFraction * measured) {
      e.carved = true;
      return e;
    }
  }
  return e;
}

}  // namespace

FusionResult fuseRestShape(const std::vector<FusionView>& views, const DepthNoise& noise, const FusionOptions& options) {
  const double h = options.voxel;
  const Vec3 extent = options.hi - options.lo;
  if (!(h > 0.0) || !(extent.minCoeff() > 0.0)) throw InputError("rest shape fusion: empty box or voxel size <= 0");
  const int resolution = static_cast<int>(std::ceil(extent.maxCoeff() / h)) + 2;
  if (resolution > 400)
    throw InputError("rest shape fusion: " + std::to_string(resolution) + " voxels across (limit 400); use a larger voxel");
  const double truncation = options.truncationVoxels * h;
  const Vec3 origin = 0.5 * (options.lo + options.hi) - Vec3::Constant(0.5 * resolution * h);

  open3d::pipelines::integration::UniformTSDFVolume tsdf(
      resolution * h, resolution, truncation, open3d::pipelines::integration::TSDFVolumeColorType::NoColor, origin);
  for (const FusionView& view : views) {
    const CameraIntrinsics& k = view.camera.intrinsics;
    const open3d::camera::PinholeCameraIntrinsic intrinsic(k.width, k.height, k.fx, k.fy, k.cx, k.cy);
    const Eigen::Matrix4d worldToCamera = view.camera.cameraToWorld().inverse();
    tsdf.Integrate(toRgbd(view.objectDepth), intrinsic, worldToCamera);
  }

  FusionResult result;
  SdfVolume& out = result.volume;
  out.origin = origin + Vec3::Constant(0.5 * h);
  out.spacing = Vec3::Constant(h);
  out.dims = Eigen::Vector3i::Constant(resolution);
  out.values.assign(out.sampleCount(), truncation);
  out.source = "<fused rest shape>";
  std::vector<char> shadowFilled(out.sampleCount(), 0);
  for (int k = 0; k < resolution; ++k)
    for (int j = 0; j < resolution; ++j)
      for (int i = 0; i < resolution; ++i) {
        const Vec3 x = out.samplePosition(i, j, k);
        const auto& voxel = tsdf.voxels_[tsdf.IndexOf(i, j, k)];
        double phi;
        const VoxelEvidence e = voxelEvidence(views, noise, x, h, options.carveFraction);
        if (e.carved) {
          phi = truncation;
          ++result.carvedVoxels;
        } else if (voxel.weight_ > 0.0f) {
          phi = static_cast<double>(voxel.tsdf_) * truncation;
          ++result.observedVoxels;
        } else {
          phi = e.shadowed ? -truncation : truncation;
          shadowFilled[out.index(i, j, k)] = e.shadowed;
        }
        out.values[out.index(i, j, k)] = phi;
      }
  extrudeIntoGroundBand(out, options.groundNormal, options.groundOffset, options.groundBand);
  if (options.clipAtGround) clipAtGround(out, options.groundNormal, options.groundOffset);
  result.insideVoxels = keepLargestInsideRegion(out, truncation);
  if (result.insideVoxels == 0) throw InputError("rest shape fusion: no voxel is inside the object after carving");

  // Crop to the inside region plus 3 voxels, then extend the distances beyond the band.
  Eigen::Vector3i lo = Eigen::Vector3i::Constant(resolution), hi = Eigen::Vector3i::Constant(-1);
  for (int k = 0; k < resolution; ++k)
    for (int j = 0; j < resolution; ++j)
      for (int i = 0; i < resolution; ++i)
        if (out.values[out.index(i, j, k)] < 0.0) {
          lo = lo.cwiseMin(Eigen::Vector3i(i, j, k));
          hi = hi.cwiseMax(Eigen::Vector3i(i, j, k));
        }
  lo = (lo.array() - 3).max(0).matrix();
  hi = (hi.array() + 3).min(resolution - 1).matrix();
  SdfVolume cropped;
  cropped.origin = out.samplePosition(lo[0], lo[1], lo[2]);
  cropped.spacing = out.spacing;
  cropped.dims = hi - lo + Eigen::Vector3i::Ones();
  cropped.source = out.source;
  cropped.values.resize(cropped.sampleCount());
  result.shadowFilled.assign(cropped.sampleCount(), 0);
  for (int k = 0; k < cropped.dims[2]; ++k)
    for (int j = 0; j < cropped.dims[1]; ++j)
      for (int i = 0; i < cropped.dims[0]; ++i) {
        const long long from = out.index(lo[0] + i, lo[1] + j, lo[2] + k);
        cropped.values[cropped.index(i, j, k)] = out.values[from];
        result.shadowFilled[cropped.index(i, j, k)] = shadowFilled[from];
      }
  extendDistances(cropped, truncation);
  result.volume = std::move(cropped);
  return result;
}

}  // namespace softfit

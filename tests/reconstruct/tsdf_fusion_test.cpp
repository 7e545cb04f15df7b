// TSDF fusion + carving of a sphere seen by 8 ideal 96 x 96 depth cameras (inside an enclosing
// background sphere, so every ray measures something): the fused volume is within 3% of
// 4/3 pi r^3; and marching cubes on an exactly sampled sphere SDF.
#include <gtest/gtest.h>

#include <cmath>

#include "grid/sdf_primitives.h"
#include "reconstruct/surface_extraction.h"
#include "reconstruct/tsdf_fusion.h"

namespace softfit {
namespace {

// Smallest t > 0 with |o + t d| = r (d unit), or the far root when o is inside.
double raySphere(const Vec3& o, const Vec3& d, double r, bool far) {
  const double b = o.dot(d), c = o.squaredNorm() - r * r, disc = b * b - c;
  if (disc < 0.0) return -1.0;
  return far ? -b + std::sqrt(disc) : -b - std::sqrt(disc);
}

FusionView sphereView(const Vec3& eye, double radius) {
  FusionView view;
  const Vec3 up = std::abs(eye.normalized().y()) > 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  view.camera = lookAtCamera(intrinsicsFromFieldOfView(96, 96, 40.0), eye, Vec3::Zero(), up);
  view.objectDepth = DepthMap(96, 96);
  view.fullDepth = DepthMap(96, 96);
  for (int v = 0; v < 96; ++v)
    for (int u = 0; u < 96; ++u) {
      const Vec3 ray = view.camera.pixelDirectionWorld(u, v);  // camera z = 1 per unit
      const Vec3 dir = ray.normalized();
      const double hit = raySphere(eye, dir, radius, false);
      const double scale = 1.0 / ray.norm();  // depth = distance * scale
      if (hit > 0.0) {
        view.objectDepth.at(u, v) = view.fullDepth.at(u, v) = hit * scale;
      } else {
        view.fullDepth.at(u, v) = raySphere(eye, dir, 5.0, true) * scale;  // the enclosing background
      }
    }
  return view;
}

TEST(TsdfFusion, SphereVolumeWithinThreePercent) {
  const double r = 0.2;
  std::vector<FusionView> views;
  for (int k = 0; k < 6; ++k) {
    const double a = k * M_PI / 3.0, e = (k % 2 ? 0.5 : -0.5);
    views.push_back(sphereView(1.5 * Vec3(std::cos(a) * std::cos(e), std::sin(e), std::sin(a) * std::cos(e)), r));
  }
  views.push_back(sphereView(Vec3(0, 1.5, 0), r));
  views.push_back(sphereView(Vec3(0, -1.5, 0), r));
  DepthNoise noise;
  noise.sensor = DepthSensorModel::ideal();
  FusionOptions options;
  options.voxel = r / 10.0;
  options.lo = Vec3::Constant(-0.3);
  options.hi = Vec3::Constant(0.3);
  options.groundNormal = Vec3::UnitY();
  options.groundOffset = 1.0;  // the floor y = -1, far below
  const FusionResult fused = fuseRestShape(views, noise, options);
  const double volume = enclosedVolume(extractZeroSurface(fused.volume));
  const double exact = 4.0 / 3.0 * M_PI * r * r * r;
  std::printf("fused sphere volume %.6g vs %.6g (%+.2f%%), %d inside voxels\n", volume, exact,
              100.0 * (volume - exact) / exact, fused.insideVoxels);
  EXPECT_NEAR(volume / exact, 1.0, 0.03);
  EXPECT_LT(VolumeSdf(fused.volume).value(Vec3::Zero()), -0.1) << "deep inside is far inside";
}

TEST(SurfaceExtraction, SampledSphereSdfVolumeWithinOnePercent) {
  const SphereSdf sphere(Vec3(0.1, 0.2, 0.3), 0.25);
  const TriangleSurface surface = extractZeroSurface(sampleSdf(sphere, 0.02));
  const double exact = 4.0 / 3.0 * M_PI * std::pow(0.25, 3);
  EXPECT_NEAR(enclosedVolume(surface) / exact, 1.0, 0.01);
  const Vec3 lo = surface.vertices.colwise().minCoeff().transpose();
  EXPECT_NEAR(lo.x(), 0.1 - 0.25, 0.005);
}

}  // namespace
}  // namespace softfit

#include "reconstruct/plane_ransac.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "forward/errors.h"

namespace softfit {

namespace {

// Inliers among every `stride`-th point (hypotheses are scored on a fixed subsample).
int countInliers(const PointMatrix& points, const std::vector<double>& tolerance, const Vec3& n, double d, int stride) {
  int count = 0;
  for (int i = 0; i < points.rows(); i += stride)
    if (std::abs(points.row(i).dot(n) + d) <= tolerance[i]) ++count;
  return count;
}

std::vector<int> inliersOf(const PointMatrix& points, const std::vector<double>& tolerance, const Vec3& n, double d) {
  std::vector<int> in;
  for (int i = 0; i < points.rows(); ++i)
    if (std::abs(points.row(i).dot(n) + d) <= tolerance[i]) in.push_back(i);
  return in;
}

// Total least squares plane through `subset`; keeps the orientation of `n`.
void refit(const PointMatrix& points, const std::vector<int>& subset, Vec3& n, double& d) {
  if (subset.size() < 3) return;
  Vec3 centroid = Vec3::Zero();
  for (int i : subset) centroid += points.row(i).transpose();
  centroid /= static_cast<double>(subset.size());
  Mat3 scatter = Mat3::Zero();
  for (int i : subset) {
    const Vec3 r = points.row(i).transpose() - centroid;
    scatter += r * r.transpose();
  }
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(scatter);
  Vec3 m = eig.eigenvectors().col(0);
  if (m.dot(n) < 0.0) m = -m;
  n = m;
  d = -n.dot(centroid);
}

}  // namespace

FittedPlane fitPlaneRansac(const PointMatrix& points, const std::vector<double>& sigmas,
                           const PlaneRansacOptions& options) {
  const int count = static_cast<int>(points.rows());
  if (count < 3) throw InputError("plane fit: needs at least 3 points (got " + std::to_string(count) + ")");
  std::vector<double> tolerance(count);
  for (int i = 0; i < count; ++i) tolerance[i] = options.toleranceScale * sigmas[i];
  const int stride = std::max(1, (count + options.scoredPoints - 1) / options.scoredPoints);
  std::mt19937_64 rng(options.seed);
  std::uniform_int_distribution<int> pick(0, count - 1);
  int best = -1;
  Vec3 bestN = Vec3::UnitY();
  double bestD = 0.0;
  for (int it = 0; it < options.iterations; ++it) {
    const int a = pick(rng), b = pick(rng), c = pick(rng);
    const Vec3 pa = points.row(a).transpose(), pb = points.row(b).transpose(), pc = points.row(c).transpose();
    Vec3 n = (pb - pa).cross(pc - pa);
    const double length = n.norm();
    if (!(length > 1e-12 * (pb - pa).squaredNorm() + 1e-300)) continue;  // collinear or repeated sample
    n /= length;
    const double d = -n.dot(pa);
    const int inliers = countInliers(points, tolerance, n, d, stride);
    if (inliers > best) {
      best = inliers;
      bestN = n;
      bestD = d;
    }
  }
  if (best < 0) throw InputError("plane fit: no three independent points among " + std::to_string(count));
  FittedPlane plane;
  plane.normal = bestN;
  plane.offset = bestD;
  for (int pass = 0; pass < 2; ++pass) {
    plane.inliers = inliersOf(points, tolerance, plane.normal, plane.offset);
    refit(points, plane.inliers, plane.normal, plane.offset);
  }
  plane.inliers = inliersOf(points, tolerance, plane.normal, plane.offset);
  return plane;
}

FittedPlane fitGroundPlane(const PointMatrix& points, const std::vector<double>& sigmas, const Vec3& up,
                           const Vec3& freeSide, const std::string& context, const PlaneRansacOptions& options,
                           double maxTiltDegrees, int maxPlanes, const std::vector<Vec3>& levelAxes) {
  const double minCos = std::cos(maxTiltDegrees * M_PI / 180.0);
  const Vec3 upUnit = up.normalized();
  // A level camera (no roll) has its image x axis horizontal: the floor's normal is
  // perpendicular to it however far the camera pitches, and lies on the image-up side
  // (a wall facing a camera that looks down lies on the other side).
  constexpr double kMaxRollSine = 0.34;        // 20 degrees
  constexpr double kMinUpCosine = 0.17;        // within 80 degrees of the image-up direction
  const auto levelFloor = [&](const Vec3& n) {
    if (levelAxes.empty() || n.dot(upUnit) < kMinUpCosine) return false;
    for (const Vec3& x : levelAxes)
      if (std::abs(n.dot(x.normalized())) > kMaxRollSine) return false;
    return true;
  };
  std::vector<int> remaining(points.rows());
  for (int i = 0; i < static_cast<int>(remaining.size()); ++i) remaining[i] = i;
  for (int k = 0; k < maxPlanes && remaining.size() >= 3; ++k) {
    PointMatrix subset(remaining.size(), 3);
    std::vector<double> subsetSigma(remaining.size());
    for (std::size_t i = 0; i < remaining.size(); ++i) {
      subset.row(i) = points.row(remaining[i]);
      subsetSigma[i] = sigmas[remaining[i]];
    }
    PlaneRansacOptions o = options;
    o.seed = options.seed + k;
    FittedPlane plane = fitPlaneRansac(subset, subsetSigma, o);
    if (plane.normal.dot(freeSide) + plane.offset < 0.0) {  // the free side (the cameras) above it
      plane.normal = -plane.normal;
      plane.offset = -plane.offset;
    }
    if (plane.normal.dot(upUnit) >= minCos || levelFloor(plane.normal)) {
      for (int& i : plane.inliers) i = remaining[i];
      return plane;
    }
    std::vector<int> next;
    std::size_t j = 0;
    for (std::size_t i = 0; i < remaining.size(); ++i) {
      if (j < plane.inliers.size() && plane.inliers[j] == static_cast<int>(i)) {
        ++j;
        continue;
      }
      next.push_back(remaining[i]);
    }
    remaining.swap(next);
  }
  throw InputError(context + ": no ground plane found (no large plane within " + std::to_string(maxTiltDegrees) +
                   " degrees of the cameras' up direction, nor level under every camera, among the " + std::to_string(maxPlanes) + " largest planes)");
}

}  // namespace softfit

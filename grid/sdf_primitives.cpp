#include "grid/sdf_primitives.h"

#include <algorithm>
#include <cmath>

#include "forward/errors.h"

namespace softfit {

namespace {

void requireFinite(const Vec3& v, const std::string& primitive, const std::string& parameter) {
  if (!v.allFinite()) throw InputError(primitive + ": " + parameter + " must be finite");
}

void requirePositive(double value, const std::string& primitive, const std::string& parameter) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw InputError(primitive + ": " + parameter + " must be positive and finite (got " + std::to_string(value) + ")");
}

}  // namespace

SphereSdf::SphereSdf(const Vec3& center, double radius) : center_(center), radius_(radius) {
  requireFinite(center, "sphere", "center");
  requirePositive(radius, "sphere", "radius");
}

double SphereSdf::value(const Vec3& p) const { return (p - center_).norm() - radius_; }

AxisBox SphereSdf::bounds() const {
  return {center_.array() - radius_, center_.array() + radius_};
}

BoxSdf::BoxSdf(const Vec3& center, const Vec3& halfExtents) : center_(center), halfExtents_(halfExtents) {
  requireFinite(center, "box", "center");
  for (int i = 0; i < 3; ++i) requirePositive(halfExtents[i], "box", "half_extents");
}

double BoxSdf::value(const Vec3& p) const {
  const Vec3 q = (p - center_).cwiseAbs() - halfExtents_;
  return q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0);
}

AxisBox BoxSdf::bounds() const { return {center_ - halfExtents_, center_ + halfExtents_}; }

TorusSdf::TorusSdf(const Vec3& center, const Vec3& axis, double majorRadius, double minorRadius)
    : center_(center), axis_(axis), majorRadius_(majorRadius), minorRadius_(minorRadius) {
  requireFinite(center, "torus", "center");
  requireFinite(axis, "torus", "axis");
  if (axis.norm() == 0.0) throw InputError("torus: axis must be non-zero");
  axis_.normalize();
  requirePositive(majorRadius, "torus", "major_radius");
  requirePositive(minorRadius, "torus", "minor_radius");
}

double TorusSdf::value(const Vec3& p) const {
  const Vec3 d = p - center_;
  const double along = d.dot(axis_);
  const double radial = (d - along * axis_).norm();
  return std::hypot(radial - majorRadius_, along) - minorRadius_;
}

AxisBox TorusSdf::bounds() const {
  // Per coordinate i the ring reaches R sqrt(1 - a_i^2) from the centre, the tube r more.
  Vec3 reach;
  for (int i = 0; i < 3; ++i)
    reach[i] = majorRadius_ * std::sqrt(std::max(0.0, 1.0 - axis_[i] * axis_[i])) + minorRadius_;
  return {center_ - reach, center_ + reach};
}

CapsuleSdf::CapsuleSdf(const Vec3& a, const Vec3& b, double radius) : a_(a), b_(b), radius_(radius) {
  requireFinite(a, "capsule", "a");
  requireFinite(b, "capsule", "b");
  requirePositive(radius, "capsule", "radius");
}

double CapsuleSdf::value(const Vec3& p) const {
  const Vec3 ab = b_ - a_;
  const double length2 = ab.squaredNorm();
  const double t = length2 > 0.0 ? std::clamp((p - a_).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (p - (a_ + t * ab)).norm() - radius_;
}

AxisBox CapsuleSdf::bounds() const {
  return {a_.cwiseMin(b_).array() - radius_, a_.cwiseMax(b_).array() + radius_};
}

}  // namespace softfit

#pragma once
// Exact signed distance fields of analytic primitives. Constructors throw InputError
// ("<primitive>: <parameter> ...") for non-positive sizes or non-finite parameters.
#include "grid/signed_distance_field.h"

namespace softfit {

class SphereSdf final : public SignedDistanceField {
 public:
  SphereSdf(const Vec3& center, double radius);
  double value(const Vec3& p) const override;
  AxisBox bounds() const override;
  std::string name() const override { return "sphere"; }

 private:
  Vec3 center_;
  double radius_;
};

// Axis-aligned box given by its centre and half-extents.
class BoxSdf final : public SignedDistanceField {
 public:
  BoxSdf(const Vec3& center, const Vec3& halfExtents);
  double value(const Vec3& p) const override;
  AxisBox bounds() const override;
  std::string name() const override { return "box"; }

 private:
  Vec3 center_;
  Vec3 halfExtents_;
};

// Torus around `axis` (normalized here) through `center`: the points at distance
// minorRadius from the circle of radius majorRadius in the plane normal to the axis.
class TorusSdf final : public SignedDistanceField {
 public:
  TorusSdf(const Vec3& center, const Vec3& axis, double majorRadius, double minorRadius);
  double value(const Vec3& p) const override;
  AxisBox bounds() const override;
  std::string name() const override { return "torus"; }

 private:
  Vec3 center_;
  Vec3 axis_;
  double majorRadius_;
  double minorRadius_;
};

// Points within `radius` of the segment [a, b] (a sphere when a == b).
class CapsuleSdf final : public SignedDistanceField {
 public:
  CapsuleSdf(const Vec3& a, const Vec3& b, double radius);
  double value(const Vec3& p) const override;
  AxisBox bounds() const override;
  std::string name() const override { return "capsule"; }

 private:
  Vec3 a_;
  Vec3 b_;
  double radius_;
};

}  // namespace softfit

#pragma once
// Constructive solid geometry on SDFs: union min(a, b), difference max(a, -b) and
// intersection max(a, b). The results are exact inside/outside and on the zero set, and
// a lower bound of the distance elsewhere (enough for cut-cell grids, which only use
// the sign and the zero crossings of phi).
#include <vector>

#include "grid/signed_distance_field.h"

namespace softfit {

class UnionSdf final : public SignedDistanceField {
 public:
  // At least one child; InputError otherwise.
  explicit UnionSdf(std::vector<SdfPtr> children);
  double value(const Vec3& p) const override;
  AxisBox bounds() const override;
  std::string name() const override { return "union"; }

 private:
  std::vector<SdfPtr> children_;
};

// The first child minus all the others.
class DifferenceSdf final : public SignedDistanceField {
 public:
  // At least two children; InputError otherwise.
  explicit DifferenceSdf(std::vector<SdfPtr> children);
  double value(const Vec3& p) const override;
  AxisBox bounds() const override { return children_.front()->bounds(); }
  std::string name() const override { return "difference"; }

 private:
  std::vector<SdfPtr> children_;
};

class IntersectionSdf final : public SignedDistanceField {
 public:
  // At least one child; InputError otherwise.
  explicit IntersectionSdf(std::vector<SdfPtr> children);
  double value(const Vec3& p) const override;
  AxisBox bounds() const override;  // may be empty (no inside point)
  std::string name() const override { return "intersection"; }

 private:
  std::vector<SdfPtr> children_;
};

}  // namespace softfit

#include "grid/sdf_csg.h"

#include <algorithm>

#include "forward/errors.h"

namespace softfit {

namespace {

void requireChildren(const std::vector<SdfPtr>& children, size_t minimum, const std::string& what) {
  if (children.size() < minimum)
    throw InputError(what + ": needs at least " + std::to_string(minimum) + " children, got " +
                     std::to_string(children.size()));
  for (const auto& c : children)
    if (!c) throw InputError(what + ": null child");
}

}  // namespace

UnionSdf::UnionSdf(std::vector<SdfPtr> children) : children_(std::move(children)) {
  requireChildren(children_, 1, "union");
}

double UnionSdf::value(const Vec3& p) const {
  double v = children_.front()->value(p);
  for (size_t i = 1; i < children_.size(); ++i) v = std::min(v, children_[i]->value(p));
  return v;
}

AxisBox UnionSdf::bounds() const {
  AxisBox b = children_.front()->bounds();
  for (size_t i = 1; i < children_.size(); ++i) b = b.merged(children_[i]->bounds());
  return b;
}

DifferenceSdf::DifferenceSdf(std::vector<SdfPtr> children) : children_(std::move(children)) {
  requireChildren(children_, 2, "difference");
}

double DifferenceSdf::value(const Vec3& p) const {
  double v = children_.front()->value(p);
  for (size_t i = 1; i < children_.size(); ++i) v = std::max(v, -children_[i]->value(p));
  return v;
}

IntersectionSdf::IntersectionSdf(std::vector<SdfPtr> children) : children_(std::move(children)) {
  requireChildren(children_, 1, "intersection");
}

double IntersectionSdf::value(const Vec3& p) const {
  double v = children_.front()->value(p);
  for (size_t i = 1; i < children_.size(); ++i) v = std::max(v, children_[i]->value(p));
  return v;
}

AxisBox IntersectionSdf::bounds() const {
  AxisBox b = children_.front()->bounds();
  for (size_t i = 1; i < children_.size(); ++i) {
    const AxisBox c = children_[i]->bounds();
    b = {b.min.cwiseMax(c.min), b.max.cwiseMin(c.max)};
  }
  return b;
}

}  // namespace softfit

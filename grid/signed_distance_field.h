#pragma once
// Signed distance fields (SDFs): phi(p) < 0 inside the object, > 0 outside, |phi| the
// distance to the surface (exact for the primitives and triangle meshes, a bound for
// CSG combinations and sampled volumes). Every SDF knows a box that contains its inside
// region, so a grid can be laid over it, and a name for error messages.
#include <memory>
#include <string>

#include "forward/types.h"

namespace softfit {

// Axis-aligned box [min, max].
struct AxisBox {
  Vec3 min = Vec3::Zero();
  Vec3 max = Vec3::Zero();

  bool isFinite() const { return min.allFinite() && max.allFinite(); }
  bool isEmpty() const { return !(min.array() <= max.array()).all(); }
  AxisBox merged(const AxisBox& other) const { return {min.cwiseMin(other.min), max.cwiseMax(other.max)}; }
  // Distance from p to the box (0 inside).
  double distance(const Vec3& p) const { return (min - p).cwiseMax(p - max).cwiseMax(0.0).norm(); }
};

class SignedDistanceField {
 public:
  virtual ~SignedDistanceField() = default;
  // phi(p): negative inside.
  virtual double value(const Vec3& p) const = 0;
  // A box containing every point with phi < 0.
  virtual AxisBox bounds() const = 0;
  // What it is, for messages: "sphere", "union", the file name of a mesh or volume.
  virtual std::string name() const = 0;
};

using SdfPtr = std::shared_ptr<const SignedDistanceField>;

}  // namespace softfit

#pragma once
// Signed distance to a triangle surface that need not be closed (holes, non-manifold
// edges, duplicated sheets, as in scanned meshes): |phi| = exact distance to the closest
// triangle (BVH), inside where the generalized winding number is >= 1/2
// (WindingNumber::inside, grid/winding_number.h). For a closed, consistently oriented
// surface it agrees with TriangleMeshSdf (grid/mesh_sdf.h), which refuses anything else. Scene key:
// "sdf": {"type": "mesh", "file": ..., "sign": "winding_number"}.
#include <memory>
#include <string>

#include "forward/mesh/triangle_bvh.h"
#include "forward/mesh/triangle_surface.h"
#include "grid/signed_distance_field.h"
#include "grid/winding_number.h"

namespace softfit {

class WindingNumberMeshSdf final : public SignedDistanceField {
 public:
  // Cleans the surface (merges duplicate vertices, drops degenerate triangles). Throws
  // InputError naming surface.source for non-finite coordinates or zero total area.
  // Surfaces whose signed enclosed volume is negative (inward-oriented) are flipped.
  explicit WindingNumberMeshSdf(const TriangleSurface& surface);
  double value(const Vec3& p) const override;
  AxisBox bounds() const override { return bounds_; }
  std::string name() const override { return source_; }
  double windingNumber(const Vec3& p) const { return winding_->value(p); }

 private:
  std::string source_;
  std::unique_ptr<TriangleBvh> bvh_;
  std::unique_ptr<WindingNumber> winding_;
  AxisBox bounds_;
};

}  // namespace softfit

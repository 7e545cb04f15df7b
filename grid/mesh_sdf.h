#pragma once
// Signed distance to a closed triangle surface: exact point-triangle distance through a
// BVH, sign from angle-weighted pseudonormals (Baerentzen & Aanaes 2005) of the closest
// feature, which is exact for closed, consistently oriented 2-manifolds.
#include <memory>
#include <string>
#include <vector>

#include "forward/mesh/triangle_surface.h"
#include "grid/signed_distance_field.h"
#include "forward/mesh/triangle_bvh.h"

namespace softfit {

class TriangleMeshSdf final : public SignedDistanceField {
 public:
  // Cleans the surface (merges duplicate vertices, drops degenerate triangles), then
  // throws InputError naming surface.source unless it is a closed 2-manifold with
  // consistently oriented triangles enclosing a positive volume. Inward-oriented
  // surfaces are flipped.
  explicit TriangleMeshSdf(const TriangleSurface& surface);
  double value(const Vec3& p) const override;
  AxisBox bounds() const override { return bounds_; }
  std::string name() const override { return source_; }
  // Unsigned distance and the closest point (for tests and diagnostics).
  TriangleBvh::Nearest nearest(const Vec3& p) const { return bvh_->closestPoint(p); }

 private:
  Vec3 pseudonormal(const TriangleBvh::Nearest& n) const;

  std::string source_;
  std::unique_ptr<TriangleBvh> bvh_;
  TriangleMatrix triangles_;
  std::vector<Vec3> faceNormals_;
  std::vector<Vec3> vertexNormals_;
  std::vector<Vec3> edgeNormals_;  // 3 per triangle: edges 01, 12, 20
  AxisBox bounds_;
};

// Reads an OBJ or STL surface (by extension) and applies x -> scale x + translate.
// InputError naming the file for unreadable surfaces or a bad scale / translation.
TriangleSurface readSdfSurface(const std::string& path, double scale = 1.0, const Vec3& translate = Vec3::Zero());

// readSdfSurface, then its SDF. InputError naming the file for non-closed or empty surfaces.
std::shared_ptr<TriangleMeshSdf> loadTriangleMeshSdf(const std::string& path, double scale = 1.0,
                                                     const Vec3& translate = Vec3::Zero());

// Throws InputError naming surface.source unless every directed edge (a, b) is matched
// by exactly one opposite edge (b, a): closed, manifold and consistently oriented.
void checkConsistentOrientation(const TriangleSurface& surface);

}  // namespace softfit

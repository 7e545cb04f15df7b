#include "adjoint/material_regions.h"

namespace softfit {

std::vector<int> materialRegionOfElements(const MaterialSettings& material, const PhysicalModel& model) {
  const auto& elements = model.elastic().elements();
  std::vector<int> region(elements.size(), 0);
  for (size_t e = 0; e < elements.size(); ++e) {
    // Centroid of the element's integration domain at rest.
    Vec3 centroid = Vec3::Zero();
    double volume = 0.0;
    for (const auto& q : elements[e].quadrature) {
      for (int a = 0; a < elements[e].nodeCount(); ++a)
        centroid += q.weight * q.N[a] * model.restPositions().segment<3>(3 * elements[e].nodes[a]);
      volume += q.weight;
    }
    centroid /= volume;
    for (size_t r = 0; r < material.regions.size(); ++r) {
      const BoxRegion& box = material.regions[r].box;
      if ((centroid.array() >= box.min.array()).all() && (centroid.array() <= box.max.array()).all())
        region[e] = static_cast<int>(r) + 1;
    }
  }
  return region;
}

}  // namespace softfit

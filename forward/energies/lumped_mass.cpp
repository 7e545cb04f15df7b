#include "forward/energies/lumped_mass.h"

#include <stdexcept>

namespace softfit {

VecX lumpedMass(const std::vector<Element>& elements, int nodeCount, const VecX& density) {
  if (density.size() != static_cast<Eigen::Index>(elements.size()))
    throw std::invalid_argument("lumpedMass: one density per element required");
  VecX mass = VecX::Zero(3 * nodeCount);
  for (size_t e = 0; e < elements.size(); ++e) {
    const Element& el = elements[e];
    for (const auto& q : el.quadrature)
      for (int a = 0; a < el.nodeCount(); ++a)
        mass.segment<3>(3 * el.nodes[a]).array() += density[e] * q.weight * q.N[a];
  }
  return mass;
}

void addDensityAdjoint(const std::vector<Element>& elements, const VecX& massBar, VecX& densityBar) {
  for (size_t e = 0; e < elements.size(); ++e) {
    const Element& el = elements[e];
    for (const auto& q : el.quadrature)
      for (int a = 0; a < el.nodeCount(); ++a) densityBar[e] += q.weight * q.N[a] * massBar.segment<3>(3 * el.nodes[a]).sum();
  }
}

}  // namespace softfit

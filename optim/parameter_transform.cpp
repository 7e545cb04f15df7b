#include "optim/parameter_transform.h"

namespace softfit {

VecX TransformSet::toInternal(const VecX& p) const {
  VecX q(p.size());
  for (int i = 0; i < p.size(); ++i) q[i] = transforms[i].toInternal(p[i]);
  return q;
}

VecX TransformSet::toPhysical(const VecX& q) const {
  VecX p(q.size());
  for (int i = 0; i < q.size(); ++i) p[i] = transforms[i].toPhysical(q[i]);
  return p;
}

VecX TransformSet::gradientToInternal(const VecX& q, const VecX& physicalGradient) const {
  VecX g(q.size());
  for (int i = 0; i < q.size(); ++i) g[i] = physicalGradient[i] * transforms[i].derivative(q[i]);
  return g;
}

TransformSet defaultTransforms(const std::vector<Parameter>& parameters) {
  TransformSet set;
  for (const auto& p : parameters) set.transforms.push_back(p.descriptor->transform);
  return set;
}

}  // namespace softfit

#include "forward/integrators/incremental_potential_objective.h"

namespace softfit {

IncrementalPotentialObjective::IncrementalPotentialObjective(const PhysicalModel& model,
                                                             const IncrementalPotentialCoefficients& c,
                                                             const SparseMatrix& D, double dt,
                                                             EigenvalueFilter filter, double filterEpsilon)
    : model_(model),
      c_(c),
      D_(D),
      h2_(dt * dt),
      filter_(filter),
      filterEpsilon_(filterEpsilon),
      damped_(model.damping.active() && D.rows() == model.dofCount() && c.dampingWeight != 0.0) {}

double IncrementalPotentialObjective::value(const VecX& x) {
  const VecX dy = x - c_.y;
  double g = 0.5 * dy.dot(model_.mass().cwiseProduct(dy)) + c_.a * h2_ * model_.potentialEnergy(c_.b * x + c_.z);
  if (damped_) {
    const VecX dr = x - c_.dampingReference;
    g += 0.5 * c_.dampingWeight * dr.dot(D_ * dr);
  }
  return g;
}

void IncrementalPotentialObjective::gradient(const VecX& x, VecX& g) {
  g = model_.mass().cwiseProduct(x - c_.y);
  VecX e = VecX::Zero(x.size());
  model_.addPotentialGradient(c_.b * x + c_.z, e);
  g += c_.a * c_.b * h2_ * e;
  if (damped_) g += c_.dampingWeight * (D_ * (x - c_.dampingReference));
}

void IncrementalPotentialObjective::hessian(const VecX& x, SparseMatrix& H, HessianKind kind) {
  BlockAssembler assembler(model_.pattern(), H);
  assembler.setZero();
  model_.addPotentialHessian(c_.b * x + c_.z, assembler, elementFilter(filter_, kind), filterEpsilon_);
  H *= c_.a * c_.b * c_.b * h2_;
  assembler.addDiagonal(model_.mass());
  if (damped_) H += c_.dampingWeight * D_;
}

}  // namespace softfit

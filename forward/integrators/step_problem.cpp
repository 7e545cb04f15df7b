#include "forward/integrators/step_problem.h"

#include <stdexcept>

#include "forward/errors.h"

namespace softfit {

double StepProblem::energyHessianWeight() const { return coefficients.energyHessianWeight(dt); }

StepProblem makeStepProblem(PhysicalModel& model, IntegratorType scheme, const State& current, const State* previous,
                            double dt) {
  if (scheme == IntegratorType::NewmarkTheta || scheme == IntegratorType::QuasiStatic)
    throw InputError("step solvers: integrator '" + integratorTypeName(scheme) +
                     "' is not an incremental-potential scheme");
  IntegratorSettings settings;
  settings.type = scheme;
  const IncrementalPotentialIntegrator integrator(settings);
  StepProblem p;
  p.scheme = scheme;
  p.dt = dt;
  p.time = current.time + dt;
  model.elastic().updateRotations(current.x);
  if (model.damping.active()) {
    p.damping = model.pattern().zeroMatrix();
    model.assembleDamping(current.x, p.damping);
  }
  p.coefficients = integrator.coefficients(model, current, previous, dt);
  p.fixed = model.fixedDofs();
  p.initialGuess = p.coefficients.y;
  model.dirichlet.applyPositions(p.time, p.initialGuess);
  return p;
}

double decrementScale(const PhysicalModel& model, const StepProblem& problem) {
  double stiffnessVolume = 0.0;
  const auto& elements = model.elastic().elements();
  const auto& lame = model.elastic().parameters();
  for (size_t e = 0; e < elements.size(); ++e)
    stiffnessVolume += elements[e].restVolume() * (2.0 * lame[e].mu + lame[e].lambda);
  return problem.energyHessianWeight() * stiffnessVolume;
}

StepObjective::StepObjective(const PhysicalModel& model, const StepProblem& problem, HessianProjection projection)
    : StepObjective(model, problem.coefficients, problem.damping, problem.dt, projection) {
  problem_ = &problem;
}

StepObjective::StepObjective(const PhysicalModel& model, const IncrementalPotentialCoefficients& coefficients,
                             const SparseMatrix& damping, double dt, HessianProjection projection)
    : model_(model),
      c_(coefficients),
      D_(damping),
      projection_(projection),
      h2_(dt * dt),
      energyHessianWeight_(coefficients.energyHessianWeight(dt)),
      damped_(model.damping.active() && damping.rows() == model.dofCount() && coefficients.dampingWeight != 0.0) {
  if (projection_.eigensystem == ElementEigensystem::AnalyticStableNeoHookean &&
      model.elastic().model() != MaterialModel::StableNeoHookean)
    throw InputError("solver.eigensystem = 'analytic' needs material 'stable_neo_hookean' (got '" +
                     materialModelName(model.elastic().model()) + "')");
}

const StepProblem& StepObjective::problem() const {
  if (!problem_) throw std::logic_error("StepObjective::problem(): built from coefficients, not a StepProblem");
  return *problem_;
}

double StepObjective::value(const VecX& x) {
  const VecX dy = x - c_.y;
  double g = 0.5 * dy.dot(model_.mass().cwiseProduct(dy)) + c_.a * h2_ * model_.potentialEnergy(c_.b * x + c_.z);
  if (damped_) {
    const VecX dr = x - c_.dampingReference;
    g += 0.5 * c_.dampingWeight * dr.dot(D_ * dr);
  }
  return g;
}

void StepObjective::gradient(const VecX& x, VecX& g) {
  g = model_.mass().cwiseProduct(x - c_.y);
  VecX e = VecX::Zero(x.size());
  model_.addPotentialGradient(c_.b * x + c_.z, e);
  g += c_.a * c_.b * h2_ * e;
  if (damped_) g += c_.dampingWeight * (D_ * (x - c_.dampingReference));
}

double StepObjective::valueAndGradient(const VecX& x, VecX& g) {
  const VecX dy = x - c_.y;
  g = model_.mass().cwiseProduct(dy);
  VecX e = VecX::Zero(x.size());
  double value = 0.5 * dy.dot(g) + c_.a * h2_ * model_.potentialEnergyAndAddGradient(c_.b * x + c_.z, e);
  g += c_.a * c_.b * h2_ * e;
  if (damped_) {  // the same expressions as value() and gradient(): the same bits
    const VecX dr = x - c_.dampingReference;
    value += 0.5 * c_.dampingWeight * dr.dot(D_ * dr);
    g += c_.dampingWeight * (D_ * dr);
  }
  return value;
}

void StepObjective::hessian(const VecX& x, SparseMatrix& H, HessianKind kind) {
  BlockAssembler assembler(model_.pattern(), H);
  assembler.setZero();
  model_.addPotentialHessian(c_.b * x + c_.z, assembler, elementFilter(projection_.filter, kind), projection_.epsilon,
                             projection_.eigensystem);
  H *= energyHessianWeight_;
  assembler.addDiagonal(model_.mass());
  if (damped_) H += c_.dampingWeight * D_;
}

SparseMatrix StepObjective::constantHessian(const SparseMatrix& energyApproximation) const {
  SparseMatrix A = model_.pattern().zeroMatrix();
  BlockAssembler assembler(model_.pattern(), A);
  model_.attachments.addHessian(assembler);
  A += energyApproximation;
  A *= energyHessianWeight_;
  assembler.addDiagonal(model_.mass());
  if (damped_) A += c_.dampingWeight * D_;
  return A;
}

}  // namespace softfit

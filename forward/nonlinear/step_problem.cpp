#include "forward/nonlinear/step_problem.h"

#include "forward/errors.h"
#include "forward/nonlinear/stable_neo_hookean_projection.h"

namespace softfit {

ElementEigensystem parseElementEigensystem(const std::string& name, const std::string& field) {
  if (name == "numeric") return ElementEigensystem::Numeric;
  if (name == "analytic") return ElementEigensystem::AnalyticStableNeoHookean;
  throw InputError(field + " = '" + name + "': unknown element eigensystem (valid: numeric, analytic)");
}

std::string elementEigensystemName(ElementEigensystem eigensystem) {
  return eigensystem == ElementEigensystem::Numeric ? "numeric" : "analytic";
}

double StepProblem::energyHessianWeight() const {
  return coefficients.a * coefficients.b * coefficients.b * dt * dt;
}

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

StepObjective::StepObjective(const PhysicalModel& model, const StepProblem& problem,
                                                             HessianProjection projection)
    : model_(model), problem_(problem), projection_(projection), h2_(problem.dt * problem.dt) {
  if (projection_.eigensystem == ElementEigensystem::AnalyticStableNeoHookean &&
      model.elastic().model() != MaterialModel::StableNeoHookean)
    throw InputError("solver.eigensystem = 'analytic' needs material 'stable_neo_hookean' (got '" +
                     materialModelName(model.elastic().model()) + "')");
}

double StepObjective::value(const VecX& x) {
  const auto& c = problem_.coefficients;
  const VecX dy = x - c.y;
  double g = 0.5 * dy.dot(model_.mass().cwiseProduct(dy)) + c.a * h2_ * model_.potentialEnergy(c.b * x + c.z);
  if (problem_.damping.size() > 0) {
    const VecX dr = x - c.dampingReference;
    g += 0.5 * c.dampingWeight * dr.dot(problem_.damping * dr);
  }
  return g;
}

void StepObjective::gradient(const VecX& x, VecX& g) {
  const auto& c = problem_.coefficients;
  g = model_.mass().cwiseProduct(x - c.y);
  VecX e = VecX::Zero(x.size());
  model_.addPotentialGradient(c.b * x + c.z, e);
  g += c.a * c.b * h2_ * e;
  if (problem_.damping.size() > 0) g += c.dampingWeight * (problem_.damping * (x - c.dampingReference));
}

double StepObjective::valueAndGradient(const VecX& x, VecX& g) {
  const auto& c = problem_.coefficients;
  const VecX dy = x - c.y;
  g = model_.mass().cwiseProduct(dy);
  VecX e = VecX::Zero(x.size());
  double value = 0.5 * dy.dot(g) + c.a * h2_ * model_.potentialEnergyAndAddGradient(c.b * x + c.z, e);
  g += c.a * c.b * h2_ * e;
  if (problem_.damping.size() > 0) {  // the same expressions as value() and gradient(): the same bits
    const VecX dr = x - c.dampingReference;
    value += 0.5 * c.dampingWeight * dr.dot(problem_.damping * dr);
    g += c.dampingWeight * (problem_.damping * dr);
  }
  return value;
}

void StepObjective::hessian(const VecX& x, SparseMatrix& H, HessianKind kind) {
  const auto& c = problem_.coefficients;
  BlockAssembler assembler(model_.pattern(), H);
  assembler.setZero();
  const VecX u = c.b * x + c.z;
  const EigenvalueFilter filter = elementFilter(projection_.filter, kind);
  if (projection_.eigensystem == ElementEigensystem::AnalyticStableNeoHookean) {
    addStableNeoHookeanProjectedHessian(model_.elastic(), u, assembler, filter, projection_.epsilon);
    model_.attachments.addHessian(assembler);
    if (model_.ground) model_.ground->addHessian(u, assembler);
  } else {
    model_.addPotentialHessian(u, assembler, filter, projection_.epsilon);
  }
  H *= problem_.energyHessianWeight();
  assembler.addDiagonal(model_.mass());
  if (problem_.damping.size() > 0) H += c.dampingWeight * problem_.damping;
}

SparseMatrix StepObjective::constantHessian(const SparseMatrix& energyApproximation) const {
  const auto& c = problem_.coefficients;
  SparseMatrix A = model_.pattern().zeroMatrix();
  BlockAssembler assembler(model_.pattern(), A);
  model_.attachments.addHessian(assembler);
  A += energyApproximation;
  A *= problem_.energyHessianWeight();
  assembler.addDiagonal(model_.mass());
  if (problem_.damping.size() > 0) A += c.dampingWeight * problem_.damping;
  return A;
}

}  // namespace softfit

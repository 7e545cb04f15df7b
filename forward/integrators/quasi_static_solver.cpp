#include "forward/integrators/quasi_static_solver.h"

#include <sstream>

#include "forward/errors.h"

namespace softfit {

namespace {

class PotentialObjective final : public NewtonObjective {
 public:
  PotentialObjective(const PhysicalModel& model, const IntegratorSettings& settings)
      : model_(model), settings_(settings) {}
  double value(const VecX& x) override { return model_.potentialEnergy(x); }
  void gradient(const VecX& x, VecX& g) override {
    g.setZero(x.size());
    model_.addPotentialGradient(x, g);
  }
  void hessian(const VecX& x, SparseMatrix& H, HessianKind kind) override {
    BlockAssembler assembler(model_.pattern(), H);
    assembler.setZero();
    model_.addPotentialHessian(x, assembler, elementFilter(settings_.filter, kind), settings_.filterEpsilon);
  }
  bool adaptiveFilter() const override { return settings_.filter == EigenvalueFilter::Adaptive; }
  bool exactHessianFirst() const override { return settings_.filter == EigenvalueFilter::ExactFirst; }
  SparseMatrix hessianPattern() const override { return model_.pattern().zeroMatrix(); }

 private:
  const PhysicalModel& model_;
  const IntegratorSettings& settings_;
};

}  // namespace

QuasiStaticSolver::QuasiStaticSolver(const IntegratorSettings& settings) : settings_(settings), newton_(settings.newton) {}

VecX QuasiStaticSolver::solve(PhysicalModel& model, VecX x, double t) {
  model.elastic().updateRotations(x);
  model.dirichlet.applyPositions(t, x);
  PotentialObjective objective(model, settings_);
  newton_.options().stepTolerance = settings_.newton.stepTolerance * model.characteristicLength();
  const DofMask fixed = model.fixedDofs();
  const NewtonResult r = newton_.minimize(objective, x, fixed);
  last_ = StepStatistics{r.iterations, r.converged, r.gradientNorm, r.iterations};
  if (!r.converged) {
    std::ostringstream msg;
    msg << "quasi_static solve at t = " << t << ": Newton did not converge in " << r.iterations
        << " iterations (gradient " << r.gradientNorm << ")";
    throw SolveError(msg.str());
  }
  return x;
}

State QuasiStaticSolver::step(PhysicalModel& model, const State& current, const State*, double dt) {
  State next;
  next.time = current.time + dt;
  next.x = solve(model, current.x, next.time);
  next.v = (next.x - current.x) / dt;
  return next;
}

}  // namespace softfit

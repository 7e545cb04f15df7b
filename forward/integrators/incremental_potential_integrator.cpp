#include "forward/integrators/incremental_potential_integrator.h"

#include <sstream>

#include "forward/errors.h"

namespace softfit {

namespace {

class IncrementalPotential final : public NewtonObjective {
 public:
  IncrementalPotential(const PhysicalModel& model, const IncrementalPotentialCoefficients& c, const SparseMatrix& D,
                       double dt, const IntegratorSettings& settings)
      : model_(model), c_(c), D_(D), h2_(dt * dt), settings_(settings), damped_(model.damping.active()) {}

  double value(const VecX& x) override {
    const VecX dy = x - c_.y;
    double g = 0.5 * dy.dot(model_.mass().cwiseProduct(dy)) + c_.a * h2_ * model_.potentialEnergy(c_.b * x + c_.z);
    if (damped_) {
      const VecX dr = x - c_.dampingReference;
      g += 0.5 * c_.dampingWeight * dr.dot(D_ * dr);
    }
    return g;
  }

  void gradient(const VecX& x, VecX& g) override {
    g = model_.mass().cwiseProduct(x - c_.y);
    VecX e = VecX::Zero(x.size());
    model_.addPotentialGradient(c_.b * x + c_.z, e);
    g += c_.a * c_.b * h2_ * e;
    if (damped_) g += c_.dampingWeight * (D_ * (x - c_.dampingReference));
  }

  void hessian(const VecX& x, SparseMatrix& H, bool exact) override {
    BlockAssembler assembler(model_.pattern(), H);
    assembler.setZero();
    model_.addPotentialHessian(c_.b * x + c_.z, assembler, exact ? EigenvalueFilter::None : settings_.filter,
                                settings_.filterEpsilon);
    H *= c_.a * c_.b * c_.b * h2_;
    assembler.addDiagonal(model_.mass());
    if (damped_) H += c_.dampingWeight * D_;  // same pattern: values add in place
  }

  SparseMatrix hessianPattern() const override { return model_.pattern().zeroMatrix(); }

 private:
  const PhysicalModel& model_;
  const IncrementalPotentialCoefficients& c_;
  const SparseMatrix& D_;
  double h2_;
  const IntegratorSettings& settings_;
  bool damped_;
};

}  // namespace

IncrementalPotentialIntegrator::IncrementalPotentialIntegrator(const IntegratorSettings& settings)
    : settings_(settings), newton_(settings.newton) {}

IncrementalPotentialCoefficients IncrementalPotentialIntegrator::coefficients(const PhysicalModel& model,
                                                                              const State& current,
                                                                              const State* previous, double h) const {
  IncrementalPotentialCoefficients c;
  const VecX& xn = current.x;
  const VecX& vn = current.v;
  c.z = VecX::Zero(xn.size());
  c.dampingReference = xn;
  switch (settings_.type) {
    case IntegratorType::BDF2:
      if (previous) {
        c.a = 4.0 / 9.0;
        c.y = (4.0 * xn - previous->x) / 3.0 + h * (8.0 * vn - 2.0 * previous->v) / 9.0;
        c.dampingWeight = 2.0 * h / 3.0;
        c.dampingReference = (4.0 * xn - previous->x) / 3.0;
        break;
      }
      [[fallthrough]];
    case IntegratorType::BackwardEuler:
      c.y = xn + h * vn;
      c.dampingWeight = h;
      break;
    case IntegratorType::ImplicitMidpoint:
      c.b = 0.5;
      c.z = 0.5 * xn;
      c.y = xn + h * vn;
      c.dampingWeight = 0.5 * h;
      break;
    case IntegratorType::NewmarkTrapezoid: {
      c.a = 0.25;
      VecX gradient = VecX::Zero(xn.size());
      model.addPotentialGradient(xn, gradient);
      c.y = xn + h * vn - 0.25 * h * h * gradient.cwiseQuotient(model.mass());
      c.dampingWeight = 0.5 * h;
      break;
    }
    default: throw std::logic_error("IncrementalPotentialIntegrator: not an incremental-potential scheme");
  }
  return c;
}

VecX IncrementalPotentialIntegrator::velocity(const VecX& x, const State& current, const State* previous,
                                              double h) const {
  switch (settings_.type) {
    case IntegratorType::BDF2:
      if (previous) return (3.0 * x - 4.0 * current.x + previous->x) / (2.0 * h);
      return (x - current.x) / h;
    case IntegratorType::BackwardEuler: return (x - current.x) / h;
    default: return 2.0 * (x - current.x) / h - current.v;
  }
}

State IncrementalPotentialIntegrator::step(PhysicalModel& model, const State& current, const State* previous,
                                           double dt) {
  model.elastic().updateRotations(current.x);
  if (model.damping.active()) {
    if (damping_.rows() != model.dofCount()) damping_ = model.pattern().zeroMatrix();
    model.assembleDamping(current.x, damping_);
  }
  const IncrementalPotentialCoefficients c = coefficients(model, current, previous, dt);

  State next;
  next.time = current.time + dt;
  // Initial guess: the inertial target (a full explicit step), with Dirichlet positions.
  next.x = c.y;
  model.dirichlet.applyPositions(next.time, next.x);

  IncrementalPotential objective(model, c, damping_, dt, settings_);
  newton_.options().stepTolerance = settings_.newton.stepTolerance * model.characteristicLength();
  const NewtonResult r = newton_.minimize(objective, next.x, model.fixedDofs());
  last_ = StepStatistics{r.iterations, r.converged, r.gradientNorm, r.iterations};
  if (!r.converged) {
    std::ostringstream msg;
    msg << integratorTypeName(settings_.type) << " step to t = " << next.time << ": Newton did not converge in "
        << r.iterations << " iterations (gradient " << r.gradientNorm << ", last step " << r.lastStepNorm << ")";
    throw SolveError(msg.str());
  }
  next.v = velocity(next.x, current, previous, dt);
  model.dirichlet.applyVelocities(next.time, next.v);
  return next;
}

}  // namespace softfit

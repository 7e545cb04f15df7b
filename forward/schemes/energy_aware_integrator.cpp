#include "forward/schemes/energy_aware_integrator.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "forward/errors.h"
#include "forward/schemes/energy_theta_scheme.h"
#include "forward/schemes/momentum_damping.h"

namespace softfit {

namespace {

struct Candidate {
  double beta = 0.0;
  State state;
  double dissipated = 0.0;  // Rayleigh damping work of this step
  double excess = 0.0;      // H - (H_target - dissipated)
};

double totalEnergy(const PhysicalModel& model, const State& s) {
  return model.kineticEnergy(s.v) + model.potentialEnergy(s.x);
}

}  // namespace

EnergyAwareIntegrator::EnergyAwareIntegrator(const EnergyAwareSettings& settings)
    : settings_(settings), newton_(settings.newton) {
  if (!(settings.energyTolerance > 0.0)) throw InputError("energy_aware.tolerance must be positive");
  if (!(settings.minimumTheta > 0.0 && settings.minimumTheta <= 0.5))
    throw InputError("energy_aware.minimum_theta must lie in (0, 0.5]");
  if (!(settings.momentumDamping >= 0.0 && settings.momentumDamping <= 1.0))
    throw InputError("energy_aware.momentum_damping must lie in [0, 1]");
}

void EnergyAwareIntegrator::reset() {
  ledgerStarted_ = false;
  blend_ = 0.0;
  damping_ = SparseMatrix();
}

void EnergyAwareIntegrator::setTargetEnergy(double target) {
  target_ = target;
  ledgerStarted_ = true;
}

void EnergyAwareIntegrator::adjointStep(PhysicalModel&, const State&, const State&, const State*, double,
                                        StepAdjoint&) {
  throw std::logic_error("EnergyAwareIntegrator: the energy-aware step has no adjoint");
}

State EnergyAwareIntegrator::step(PhysicalModel& model, const State& current, const State*, double dt) {
  if (!ledgerStarted_) setTargetEnergy(totalEnergy(model, current));
  model.elastic().updateRotations(current.x);
  const bool damped = model.damping.active();
  if (damped) {
    if (damping_.rows() != model.dofCount()) damping_ = model.pattern().zeroMatrix();
    model.assembleDamping(current.x, damping_);
  }
  const SparseMatrix noDamping;
  const SparseMatrix& D = damped ? damping_ : noDamping;
  newton_.options() = settings_.newton;
  newton_.options().stepTolerance = settings_.newton.stepTolerance * model.characteristicLength();
  const double band = settings_.energyTolerance * std::abs(target_);
  const double nextTime = current.time + dt;
  const DofMask fixed = model.fixedDofs();

  int solves = 0, iterations = 0;
  auto solve = [&](double beta, const VecX& guess) {
    const double theta = 0.5 * (1.0 + beta);
    const IncrementalPotentialCoefficients c = thetaSchemeCoefficients(current, theta, dt);
    Candidate out;
    out.beta = beta;
    out.state.time = nextTime;
    out.state.x = guess;
    model.dirichlet.applyPositions(nextTime, out.state.x);
    StepObjective objective(model, c, D, dt, {settings_.filter, settings_.filterEpsilon});
    const NewtonResult r = newton_.minimize(objective, out.state.x, fixed);
    ++solves;
    iterations += r.iterations;
    if (!r.converged) {
      std::ostringstream msg;
      msg << "energy-aware step to t = " << nextTime << " (blend " << beta << "): Newton did not converge in "
          << r.iterations << " iterations (gradient " << r.gradientNorm << ")";
      throw SolveError(msg.str());
    }
    out.state.v = thetaSchemeVelocity(out.state.x, current, theta, dt);
    model.dirichlet.applyVelocities(nextTime, out.state.v);
    if (damped) {
      const VecX dx = out.state.x - current.x;
      out.dissipated = dx.dot(D * dx) / dt;
    }
    out.excess = totalEnergy(model, out.state) - (target_ - out.dissipated);
    if (!std::isfinite(out.excess)) throw SolveError("energy-aware step: non-finite energy");
    return out;
  };
  auto inBand = [&](const Candidate& c) { return std::abs(c.excess) <= band; };

  const VecX inertial = current.x + dt * current.v;
  const double minimumBlend = 2.0 * settings_.minimumTheta - 1.0;
  Candidate accepted = solve(blend_, inertial);
  if (!inBand(accepted)) {
    // excess(beta) decreases with beta: go to the end of [minimumBlend, 1] that moves
    // the energy towards the target and bracket the root.
    const double end = accepted.excess > 0.0 ? 1.0 : minimumBlend;
    if (end != accepted.beta) {
      Candidate other = solve(end, accepted.state.x);
      const bool sameSide = (other.excess > 0.0) == (accepted.excess > 0.0);
      if (inBand(other) || sameSide) {
        // In band, or even the end of the range cannot reach the target: keep the end.
        accepted = std::move(other);
      } else {
        Candidate high = accepted.excess > 0.0 ? std::move(accepted) : other;
        Candidate low = other.excess < 0.0 ? std::move(other) : std::move(accepted);
        // Illinois regula falsi on excess(beta), high.excess > 0 > low.excess.
        int lastSide = 0;
        Candidate best = std::abs(high.excess) < std::abs(low.excess) ? high : low;
        double fHigh = high.excess, fLow = low.excess;
        while (solves < settings_.maxBlendSolves) {
          const double beta = (high.beta * fLow - low.beta * fHigh) / (fLow - fHigh);
          const VecX& guess = std::abs(beta - high.beta) < std::abs(beta - low.beta) ? high.state.x : low.state.x;
          Candidate c = solve(beta, guess);
          if (std::abs(c.excess) < std::abs(best.excess)) best = c;
          if (inBand(c)) break;
          if (c.excess > 0.0) {
            high = std::move(c);
            fHigh = high.excess;
            if (lastSide == 1) fLow *= 0.5;
            lastSide = 1;
          } else {
            low = std::move(c);
            fLow = low.excess;
            if (lastSide == -1) fHigh *= 0.5;
            lastSide = -1;
          }
        }
        accepted = std::move(best);
      }
    }
  }

  info_ = EnergyAwareStepInfo{};
  info_.blend = accepted.beta;
  info_.solves = solves;
  info_.inBand = inBand(accepted);
  blend_ = accepted.beta;
  target_ -= accepted.dissipated;
  State next = std::move(accepted.state);

  if (settings_.momentumDamping > 0.0) {
    const double before = model.kineticEnergy(next.v);
    applyMomentumPreservingDamping(model.mass(), next.x, settings_.momentumDamping, next.v);
    model.dirichlet.applyVelocities(nextTime, next.v);
    target_ -= before - model.kineticEnergy(next.v);
  }
  if (settings_.projectEnergyMomentum) {
    FeprTarget goal = conservedQuantities(model, current);
    goal.energy = target_;
    info_.fepr = feprProject(model, goal, current, dt, next, settings_.fepr);
  }
  info_.energy = totalEnergy(model, next);
  info_.targetEnergy = target_;
  last_ = StepStatistics{iterations, true, std::abs(info_.energy - target_) / std::max(std::abs(target_), 1e-300),
                         iterations};
  return next;
}

}  // namespace softfit

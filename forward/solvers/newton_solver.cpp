#include "forward/solvers/newton_solver.h"

#include <cmath>
#include <string>

#include "forward/errors.h"

namespace softfit {

namespace {

// Factorizes H, shifting the diagonal when it is not positive definite (only happens
// with unfiltered Hessians); returns the shift used.
double factorizeWithShift(CholeskySolver& cholesky, SparseMatrix& H, int& factorizations) {
  ++factorizations;
  if (cholesky.factorize(H)) return 0.0;
  double scale = 0.0;
  for (int i = 0; i < H.rows(); ++i) scale = std::max(scale, std::abs(H.coeff(i, i)));
  double shift = 1e-8 * std::max(scale, 1.0);
  VecX diagonal = H.diagonal();
  for (int attempt = 0; attempt < 30; ++attempt, shift *= 10.0) {
    for (int i = 0; i < H.rows(); ++i) H.coeffRef(i, i) = diagonal[i] + shift;
    ++factorizations;
    if (cholesky.factorize(H)) return shift;
  }
  throw SolveError("Newton: Hessian could not be made positive definite");
}

}  // namespace

bool NewtonSolver::factorizeExactHessian(const SparseMatrix& H, const VecX& at) {
  exactFactorValid_ = cholesky_.factorize(H);
  if (exactFactorValid_) exactFactorAt_ = at;
  return exactFactorValid_;
}

NewtonResult NewtonSolver::minimize(NewtonObjective& objective, VecX& x, const DofMask& fixed) {
  NewtonResult result;
  exactFactorValid_ = false;
  if (H_.rows() != x.size()) H_ = objective.hessianPattern();
  const bool adaptive = objective.adaptiveFilter();
  if (adaptive && exactH_.rows() != x.size()) exactH_ = objective.hessianPattern();
  bool modelTrusted = false;  // adaptive: the last step's trust-region ratio was near 1
  const bool exactFirst = objective.exactHessianFirst();
  bool exactRejected = false;  // exact first: this iteration's exact step found no decrease
  VecX g(x.size()), zero = VecX::Zero(x.size());
  double value = objective.value(x);
  if (!std::isfinite(value)) throw SolveError("Newton: objective is not finite at the initial guess");
  if (options_.observer) options_.observer(0, x, value);
  double gradientTwoNorm = 0.0, initialGradientTwoNorm = -1.0;
  // Reports an iteration that moved x by alpha dx.
  auto report = [&](double alpha, bool exactStep, bool indefiniteStep) {
    if (indefiniteStep) ++result.indefiniteIterations;
    if (options_.observer) options_.observer(result.iterations, x, value);
    if (options_.trace)
      options_.trace({result.iterations, exactStep, indefiniteStep, gradientTwoNorm, result.lastStepNorm, alpha, value});
  };
  // Watchdog (Nocedal & Wright, sec. 15.6): the iterate where the relaxed full steps
  // began, with its value, Newton step, slope and Hessian kind.
  int relaxed = 0;  // full steps taken since `reference` without sufficient decrease
  struct {
    VecX x, dx;
    double value = 0.0, slope = 0.0, stepNorm = 0.0;
    bool exact = false, indefinite = false;
  } reference;
  for (int it = 0; it < options_.maxIterations; ++it) {
    objective.gradient(x, g);
    zeroConstrained(g, fixed);
    result.gradientNorm = freeInfinityNorm(g, fixed);
    gradientTwoNorm = g.norm();
    if (!std::isfinite(result.gradientNorm)) throw SolveError("Newton: gradient is not finite");
    if (initialGradientTwoNorm < 0.0) initialGradientTwoNorm = gradientTwoNorm;
    if (result.gradientNorm <= options_.gradientTolerance ||
        gradientTwoNorm <= options_.relativeGradientTolerance * initialGradientTwoNorm) {
      result.converged = true;
      break;
    }
    VecX rhs = -g;
    // Close to the minimum the exact Hessian gives quadratic convergence (full steps).
    const bool local = it > 0 && result.lastStepNorm <= options_.exactHessianBelow * options_.stepTolerance;
    bool factorized = false;  // the exact Hessian is factorized
    if ((local || exactFirst) && !exactRejected) {
      objective.hessian(x, H_, HessianKind::Exact);
      eliminateDirichlet(H_, rhs, fixed, zero);
      factorized = cholesky_.factorize(H_);
      ++result.factorizations;
    }
    VecX dx;
    bool indefinite = false;  // the step solved the exact Hessian's LDL^T
    if (factorized) {
      dx = cholesky_.solve(rhs);
      // Positive definite H gives g.dx = -g H^-1 g < 0; round-off aside. Otherwise filter.
      if (!(g.dot(dx) < 0.0) && !local) factorized = false;
    } else if (exactFirst && !exactRejected && !local && options_.indefiniteExactSteps) {
      // Indefinite exact Hessian: its Newton step may still point downhill (the large
      // rotations of a bending bar pass through such states); take it when it does.
      ++result.factorizations;
      if (indefinite_.factorize(H_)) {
        dx = indefinite_.solve(rhs);
        const double cosine = -g.dot(dx) / (g.norm() * dx.norm());
        factorized = indefinite = dx.allFinite() && cosine >= options_.indefiniteDescentCosine;
      }
    }
    if (!factorized) {
      objective.hessian(x, H_, modelTrusted ? HessianKind::FilteredModelTrusted : HessianKind::Filtered);
      eliminateDirichlet(H_, rhs, fixed, zero);
      factorizeWithShift(cholesky_, H_, result.factorizations);
      dx = cholesky_.solve(rhs);
      ++result.filteredIterations;
    }
    bool exactStep = factorized;
    exactRejected = false;
    result.iterations = it + 1;
    result.lastStepNorm = freeInfinityNorm(dx, fixed);
    if (!std::isfinite(result.lastStepNorm)) throw SolveError("Newton: step is not finite");

    if (result.lastStepNorm <= options_.stepTolerance) {
      // Converged: the remaining correction is below the tolerance; take it without a
      // line search (at this scale the objective's round-off dominates its decrease).
      if (exactStep && !indefinite) {
        exactFactorAt_ = x;
        exactFactorValid_ = true;
      }
      x += dx;
      value = objective.value(x);
      report(1.0, exactStep, indefinite);
      result.converged = true;
      relaxed = 0;
      break;
    }
    double slope = g.dot(dx);
    result.decrement = -0.5 * slope;
    if (options_.decrementTolerance > 0.0 && result.decrement <= options_.decrementTolerance) {
      result.converged = true;
      break;
    }
    if ((exactStep && local) || -slope <= 1e-14 * (std::abs(value) + 1e-300)) {
      // Local phase: the exact Hessian is positive definite this close to the minimum,
      // so the full Newton step converges quadratically. A line search would only see
      // the objective's round-off here (its decrease is ~|g| |dx|).
      x += dx;
      value = objective.value(x);
      report(1.0, exactStep, indefinite);
      relaxed = 0;
      continue;
    }
    // Adaptive: the exact model's curvature along dx, for the trust-region ratio below.
    double curvature = 0.0;
    if (adaptive) {
      objective.hessian(x, exactH_, HessianKind::Exact);
      curvature = dx.dot(exactH_ * dx);
    }
    if (relaxed == 0) reference = {x, dx, value, slope, result.lastStepNorm, exactStep, indefinite};
    // The full step first: accepted when it decreases the objective enough below the
    // reference iterate's value (with no relaxed steps pending, the Armijo test).
    double alpha = 1.0;
    VecX trial = x + dx;
    double trialValue = objective.value(trial);
    bool accepted = std::isfinite(trialValue) && trialValue <= reference.value + options_.armijo * reference.slope;
    if (accepted) {
      relaxed = 0;
    } else if (std::isfinite(trialValue) && relaxed < options_.watchdogSteps) {
      // Watchdog: take the full step anyway; Newton often passes through higher values
      // on its way (large rotations), and its next steps usually more than make up.
      ++relaxed;
      accepted = true;
    } else {
      if (relaxed > 0) {
        // The relaxed steps found no decrease: back to the reference iterate, whose
        // full step is known to fail, and backtrack along its step.
        x = reference.x;
        value = reference.value;
        dx = reference.dx;
        slope = reference.slope;
        exactStep = reference.exact;
        indefinite = reference.indefinite;
        result.lastStepNorm = reference.stepNorm;
        relaxed = 0;
      }
      for (int ls = 1; ls < options_.maxLineSearchSteps; ++ls) {
        alpha *= options_.backtrack;
        trial = x + alpha * dx;
        trialValue = objective.value(trial);
        if (std::isfinite(trialValue) && trialValue <= value + options_.armijo * alpha * slope) {
          accepted = true;
          break;
        }
      }
    }

    if (!accepted && exactStep) {
      // Exact first, far from the minimum: the exact step found no decrease (a positive
      // definite but poor quadratic model); redo this iteration with the filtered Hessian.
      exactRejected = true;
      --it;
      continue;
    }
    if (!accepted) {
      // At round-off level the objective cannot decrease any more: a tiny step means
      // we are at the minimum; otherwise the solve failed.
      if (result.lastStepNorm <= options_.stepTolerance * 1e3) {
        result.converged = true;
        break;
      }
      result.value = value;
      return result;
    }
    if (adaptive) {
      const double predicted = -(alpha * slope + 0.5 * alpha * alpha * curvature);
      const double rho = (value - trialValue) / predicted;
      // A backtracked step says the model was wrong at full length even when its short
      // step matches (rho -> 1 as alpha -> 0): trust it only after a full step.
      modelTrusted = alpha == 1.0 && std::isfinite(rho) && std::abs(rho - 1.0) < options_.trustedModelTolerance;
    }
    x = trial;
    value = trialValue;
    report(alpha, exactStep, indefinite);
  }
  if (relaxed > 0 && !result.converged) {
    // Out of iterations during relaxed steps: return the better reference iterate.
    x = reference.x;
    value = reference.value;
  }
  result.value = value;
  return result;
}

}  // namespace softfit

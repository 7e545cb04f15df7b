#pragma once
// Projected Newton minimization of a smooth objective with fixed (Dirichlet) dofs:
// PSD-filtered Hessian (filtering is the objective's job), CHOLMOD solve with the
// symbolic analysis reused across calls, the full step first with a watchdog, then a
// backtracking Armijo line search. Exact first: the exact Hessian's Cholesky step, else
// its LDL^T step where that is a descent direction, else the filtered Hessian's step.
#include <functional>

#include "forward/math/psd_projection.h"
#include "forward/solvers/cholesky_solver.h"
#include "forward/solvers/dirichlet_elimination.h"

namespace softfit {

class NewtonObjective {
 public:
  virtual ~NewtonObjective() = default;
  virtual double value(const VecX& x) = 0;
  virtual void gradient(const VecX& x, VecX& g) = 0;
  // value(x) and gradient(x, g) together (objectives override it to share the work).
  virtual double valueAndGradient(const VecX& x, VecX& g) {
    gradient(x, g);
    return value(x);
  }
  // Overwrites H (which already has the objective's sparsity pattern) with the
  // Hessian at x: exact, or eigenvalue-filtered (projected Newton) as `kind` asks.
  virtual void hessian(const VecX& x, SparseMatrix& H, HessianKind kind) = 0;
  virtual SparseMatrix hessianPattern() const = 0;
  // True when the filtered Hessian depends on HessianKind::FilteredModelTrusted
  // (EigenvalueFilter::Adaptive): the solver then measures every step's trust-region
  // ratio, which costs one exact Hessian assembly per iteration.
  virtual bool adaptiveFilter() const { return false; }
  // True when the exact Hessian should be tried first in every iteration
  // (EigenvalueFilter::ExactFirst): Cholesky, else (indefinite) LDL^T whose step is used
  // when it is a descent direction (NewtonOptions::indefiniteExactSteps); the filtered
  // Hessian is used only when neither gives a descent direction or the step finds no
  // decrease.
  virtual bool exactHessianFirst() const { return false; }
};

// One Newton iteration as NewtonOptions::trace reports it.
struct NewtonIterationInfo {
  int iteration = 0;          // from 1
  bool exactHessian = false;  // the step came from the exact (unfiltered) Hessian
  bool indefinite = false;    // ...whose Cholesky failed: the step solved its LDL^T
  double gradientNorm = 0.0;  // 2-norm of the free-dof gradient before the step
  double stepNorm = 0.0;      // infinity norm of the Newton step
  double alpha = 0.0;         // accepted step length (1: full step)
  double value = 0.0;         // objective after the step
};

struct NewtonOptions {
  int maxIterations = 100;
  // Converged when the infinity norm of the Newton step falls below this (absolute,
  // in length units) or the free-dof gradient infinity norm below gradientTolerance.
  double stepTolerance = 1e-10;
  double gradientTolerance = 0.0;
  // Also converged when the free-dof gradient's 2-norm falls to this fraction of its
  // value at the initial guess (FEniCS' relative residual test); 0 disables it.
  double relativeGradientTolerance = 0.0;
  double armijo = 1e-8;
  double backtrack = 0.5;
  int maxLineSearchSteps = 50;
  // Watchdog (Nocedal & Wright, sec. 15.6): a full step that fails the Armijo test is
  // still taken, up to this many in a row, as long as the objective stays finite. Once a
  // full step lands sufficiently below the iterate where they began (the reference),
  // Newton goes on from there; otherwise it returns to the reference and backtracks
  // along the reference's step. 0: plain backtracking from the full step.
  int watchdogSteps = 2;  // 2 since the LDL^T steps (2026-11-26; was 1)
  // Exact first (NewtonObjective::exactHessianFirst), where the exact Hessian's Cholesky
  // fails: solve with its LDL^T factorization (CHOLMOD simplicial, no pivoting; negative
  // pivots are fine, zero ones fail) and take that step when it is finite and a descent
  // direction, -g.dx >= indefiniteDescentCosine |g| |dx|; otherwise the filtered Hessian.
  // false: straight to the filtered Hessian (before 2026-11-26).
  bool indefiniteExactSteps = true;
  double indefiniteDescentCosine = 1e-6;
  // Once the Newton step is below this multiple of stepTolerance the exact Hessian is
  // tried first (quadratic convergence); the filtered one is used when it is not
  // positive definite.
  double exactHessianBelow = 1e5;
  // Also converged when the Newton decrement -1/2 g.dx (objective units, dx the
  // projected-Newton step) is at most this, checked before the line search (the step
  // is then not taken). 0 disables it (the default).
  double decrementTolerance = 0.0;
  // Adaptive filtering (Chen et al. SIGGRAPH Asia 2024): after a step whose trust-region
  // ratio rho = actual / predicted decrease (predicted by the exact Hessian's quadratic
  // model) is within this of 1, the next Hessian is HessianKind::FilteredModelTrusted.
  double trustedModelTolerance = 0.01;
  // Called after every iteration that changed x (iteration counts from 1), and once
  // with iteration 0 at the initial guess; for convergence histories. Optional.
  std::function<void(int iteration, const VecX& x, double value)> observer;
  // Called after every iteration that changed x with what the iteration did. Optional.
  std::function<void(const NewtonIterationInfo&)> trace;
};

struct NewtonResult {
  int iterations = 0;
  double value = 0.0;
  double gradientNorm = 0.0;  // infinity norm on free dofs
  double lastStepNorm = 0.0;  // infinity norm of the last Newton step
  double decrement = 0.0;     // -1/2 g.dx of the last Newton step
  int factorizations = 0;     // numeric Cholesky factorizations (shift retries included)
  int filteredIterations = 0;  // iterations that used the filtered Hessian
  int indefiniteIterations = 0;  // iterations that used the exact Hessian's LDL^T step
  bool converged = false;
};

class NewtonSolver {
 public:
  explicit NewtonSolver(NewtonOptions options = {}) : options_(options) {}
  const NewtonOptions& options() const { return options_; }
  NewtonOptions& options() { return options_; }

  // Minimizes from x (entries with fixed[i] set are kept). Never throws on
  // non-convergence: the result says so. Throws SolveError on non-finite values.
  NewtonResult minimize(NewtonObjective& objective, VecX& x, const DofMask& fixed);
  // CHOLMOD symbolic analyses so far (1 while the Hessian pattern does not change).
  int symbolicAnalyses() const { return cholesky_.symbolicAnalyses(); }
  // When the last minimize() converged with a full step solved by the Cholesky factor of
  // the exact Hessian (fixed rows and columns eliminated as eliminateDirichlet does):
  // that factor, and in *at the point where it was factorized, one step (at most
  // stepTolerance in the infinity norm) before the returned x. Otherwise null. Lets
  // sensitivities at the equilibrium reuse Newton's last factorization.
  // factorizeExactHessian() also sets it.
  const CholeskySolver* lastExactFactorization(VecX* at = nullptr) const {
    if (!exactFactorValid_) return nullptr;
    if (at) *at = exactFactorAt_;
    return &cholesky_;
  }
  // Factorizes H, the exact Hessian at `at` with the fixed dofs eliminated, with Newton's
  // own Cholesky solver (same pattern: its symbolic analysis is reused), for solves at an
  // equilibrium that minimize() did not factorize. Returns false when H is not positive
  // definite; otherwise lastExactFactorization() returns it.
  bool factorizeExactHessian(const SparseMatrix& H, const VecX& at);

 private:
  NewtonOptions options_;
  CholeskySolver cholesky_;
  CholeskySolver indefinite_{CholeskyMode::Simplicial};  // LDL^T of indefinite exact Hessians
  SparseMatrix H_;
  SparseMatrix exactH_;  // adaptive filtering: the exact Hessian for the trust-region ratio
  VecX exactFactorAt_;    // lastExactFactorization()
  bool exactFactorValid_ = false;
};

}  // namespace softfit

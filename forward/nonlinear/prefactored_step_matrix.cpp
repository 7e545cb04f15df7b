#include "forward/nonlinear/prefactored_step_matrix.h"

#include "forward/errors.h"
#include "forward/nonlinear/elastic_laplacian.h"

namespace softfit {

bool PrefactoredStepMatrix::prepare(const StepObjective& objective, double laplacianScale) {
  const PhysicalModel& model = objective.model();
  const StepProblem& problem = objective.problem();
  const bool damped = problem.damping.size() > 0;
  if (valid_ && !damped && model_ == &model && energyWeight_ == problem.energyHessianWeight() &&
      laplacianScale_ == laplacianScale && fixed_ == problem.fixed)
    return false;
  if (model_ != &model || laplacianScale_ != laplacianScale || laplacian_.rows() != model.dofCount())
    laplacian_ = elasticLaplacian(model, laplacianScale);
  SparseMatrix A = objective.constantHessian(laplacian_);
  VecX rhs = VecX::Zero(A.rows());
  eliminateDirichlet(A, rhs, problem.fixed, VecX::Zero(A.rows()));
  if (!cholesky_.factorize(A)) throw SolveError("step solver: M + h^2 L is not positive definite");
  valid_ = true;
  model_ = &model;
  energyWeight_ = problem.energyHessianWeight();
  laplacianScale_ = laplacianScale;
  fixed_ = problem.fixed;
  return true;
}

}  // namespace softfit

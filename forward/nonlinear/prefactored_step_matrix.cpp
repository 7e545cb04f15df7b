#include "forward/nonlinear/prefactored_step_matrix.h"

#include "forward/errors.h"

namespace softfit {

namespace {

// S with A = S kron I3, when every 3x3 block of A is a multiple of the identity (exactly);
// returns false otherwise.
bool nodeScalarMatrix(const SparseMatrix& A, SparseMatrix& S) {
  if (A.rows() % 3 != 0) return false;
  std::vector<Eigen::Triplet<double>> entries;
  for (int c = 0; c < A.outerSize(); c += 3)
    for (SparseMatrix::InnerIterator it(A, c); it; ++it)
      if (it.row() % 3 == 0) entries.emplace_back(it.row() / 3, c / 3, it.value());
  S.resize(A.rows() / 3, A.cols() / 3);
  S.setFromTriplets(entries.begin(), entries.end());
  for (int c = 0; c < A.outerSize(); ++c)
    for (SparseMatrix::InnerIterator it(A, c); it; ++it) {
      const bool diagonal = it.row() % 3 == c % 3;
      if (it.value() != (diagonal ? S.coeff(it.row() / 3, c / 3) : 0.0)) return false;
    }
  return true;
}

}  // namespace

VecX PrefactoredStepMatrix::solve(const VecX& r) const {
  if (!scalar_) return cholesky_.solve(r);
  using NodeRows = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
  const Eigen::Index n = r.size() / 3;
  const MatX x = cholesky_.solveColumns(Eigen::Map<const NodeRows>(r.data(), n, 3));
  VecX result(r.size());
  Eigen::Map<NodeRows>(result.data(), n, 3) = x;
  return result;
}

bool PrefactoredStepMatrix::prepare(const StepObjective& objective, double laplacianScale, LaplacianWeights weights) {
  const PhysicalModel& model = objective.model();
  const StepProblem& problem = objective.problem();
  const bool damped = problem.damping.size() > 0;
  const bool groundBound = weights == LaplacianWeights::ProjectiveDynamics && model.ground;
  const GroundPlane ground = groundBound ? model.ground->plane() : GroundPlane{};
  const bool sameGround = ground.normal == ground_.normal && ground.stiffness == ground_.stiffness;
  if (valid_ && !damped && model_ == &model && energyWeight_ == problem.energyHessianWeight() &&
      laplacianScale_ == laplacianScale && weights_ == weights && sameGround && fixed_ == problem.fixed)
    return false;
  if (model_ != &model || laplacianScale_ != laplacianScale || weights_ != weights || !sameGround ||
      laplacian_.rows() != model.dofCount()) {
    laplacian_ = elasticLaplacian(model, laplacianScale, weights);
    if (groundBound) {
      BlockAssembler assembler(model.pattern(), laplacian_);
      model.ground->addCurvatureBound(assembler);
    }
  }
  SparseMatrix A = objective.constantHessian(laplacian_);
  VecX rhs = VecX::Zero(A.rows());
  eliminateDirichlet(A, rhs, problem.fixed, VecX::Zero(A.rows()));
  SparseMatrix S;
  scalar_ = nodeScalarMatrix(A, S);
  const CholeskyMode mode = scalar_ ? CholeskyMode::Simplicial : CholeskyMode::Supernodal;
  if (cholesky_.mode() != mode) cholesky_ = CholeskySolver(mode);
  if (!cholesky_.factorize(scalar_ ? S : A)) throw SolveError("step solver: M + h^2 L is not positive definite");
  valid_ = true;
  model_ = &model;
  energyWeight_ = problem.energyHessianWeight();
  laplacianScale_ = laplacianScale;
  weights_ = weights;
  ground_ = ground;
  fixed_ = problem.fixed;
  return true;
}

}  // namespace softfit

#include "face/face_solver.h"

#include <Eigen/SparseCholesky>
#include <cmath>
#include <stdexcept>
#include <string>

#include "forward/errors.h"
#include "forward/math/parallel_ranges.h"
#include "forward/math/worker_pool.h"
#include "forward/solvers/conjugate_gradient.h"

namespace softfit::face {

NewtonOptions FaceSolver::defaultOptions() {
  NewtonOptions o;
  o.maxIterations = 200;
  // Converged once a Newton step is below 1e-7 model units (0.1 um for a face in metres);
  // that last step is still taken. The face's Newton uses the exact Hessian there
  // (EigenvalueFilter::ExactFirst), so the error left after it is ~ its square
  // (quadratic convergence: a 1.6e-8 step is followed by a 4e-14 one on the 25k-tet
  // bench face); 1e-11 cost one or two more iterations per solve for no change in the
  // results. The local phase (full exact steps, no line search) still starts below 1e-6.
  o.stepTolerance = 1e-7;
  o.exactHessianBelow = 10.0;
  return o;
}

FaceSolver::FaceSolver(const FaceModel& model, NewtonOptions options)
    : model_(model),
      potential_(model),
      newton_(options),
      fixed_(model.attachedDofs()),
      jawTets_(model.tetCount(), 0) {
  std::vector<char> jawNode(model.nodeCount(), 0);
  for (int n : model.jawNodes) jawNode[n] = 1;
  for (int t = 0; t < model.tetCount(); ++t)
    for (int n : model.elements[t].nodes) jawTets_[t] |= jawNode[n];
}

NewtonResult FaceSolver::solve(const std::vector<Vec6>& tetActivations, const JawPose& pose, VecX& x) {
  factorizationCurrent_ = gradientCurrent_ = hessianCurrent_ = false;
  potential_.setActivations(tetActivations);
  if (x.size() != 3 * model_.nodeCount()) x = model_.mesh.restPositions();
  model_.applyAttachments(pose, x);
  solvedX_.resize(0);
  const NewtonResult r = newton_.minimize(potential_, x, fixed_);
  if (!r.converged)
    throw SolveError("face equilibrium: Newton did not converge in " + std::to_string(r.iterations) +
                     " iterations (gradient " + std::to_string(r.gradientNorm) + ")");
  solvedX_ = x;
  return r;
}

void FaceSolver::adoptEquilibrium(const std::vector<Vec6>& tetActivations, const JawPose& pose, VecX& x) {
  if (x.size() != 3 * model_.nodeCount()) throw std::logic_error("FaceSolver::adoptEquilibrium: 3N positions expected");
  factorizationCurrent_ = gradientCurrent_ = hessianCurrent_ = false;
  solvedX_.resize(0);
  potential_.setActivations(tetActivations);
  model_.applyAttachments(pose, x);
}

void FaceSolver::factorizeAt(const VecX& x, const std::function<void()>& meanwhile) {
  if (factorizationCurrentAt(x)) {
    if (meanwhile) meanwhile();
    return;
  }
  factorizationCurrent_ = false;
  const bool reuse = reuseNewtonFactorization_ && solvedX_.size() == x.size() && solvedX_ == x &&
                     newton_.lastExactFactorization();
  splitFactorization_ = false;
  if (reuse) {
    indefinite_ = false;
    if (meanwhile) meanwhile();
  } else {
    assembleHessianAt(x);
    ++factorizations_;
    const auto factorize = [&] {
      // Newton's Cholesky solver: one symbolic analysis for all of this solver's systems.
      indefinite_ = !newton_.factorizeExactHessian(H_, x);
      if (indefinite_) {
        // The exact Hessian of a (marginally) stable equilibrium may be indefinite in
        // round-off: fall back to an LDL^T factorization.
        indefiniteSolver_.compute(H_);
        if (indefiniteSolver_.info() != Eigen::Success) throw SolveError("face: equilibrium Hessian is singular");
      }
    };
    if (H_.rows() >= kTwoDomainCholeskyRows && !split_.analyzed() && !splitRefused_)
      splitRefused_ = !split_.analyze(H_, 3, fixed_);
    if (split_.analyzed()) {
      // It takes both cores: meanwhile runs first.
      if (meanwhile) meanwhile();
      splitFactorization_ = split_.factorize(H_);
      indefinite_ = false;
      if (!splitFactorization_) factorize();
    } else if (meanwhile && defaultThreadCount() > 1) {
      runOnWorkers(2, [&](int part) { part == 0 ? factorize() : meanwhile(); });
    } else {
      factorize();
      if (meanwhile) meanwhile();
    }
  }
  factorizedAt_ = x;
  factorizationCurrent_ = true;
}

bool FaceSolver::factorizationCurrentAt(const VecX& x) const {
  return factorizationCurrent_ && factorizedAt_.size() == x.size() && factorizedAt_ == x;
}

bool FaceSolver::hessianCurrentAt(const VecX& x) const {
  return hessianCurrent_ && hessianAt_.size() == x.size() && hessianAt_ == x;
}

void FaceSolver::assembleHessianAt(const VecX& x) {
  if (hessianCurrentAt(x)) return;
  hessianCurrent_ = false;
  if (H_.rows() != x.size()) {
    H_ = potential_.hessianPattern();
    coupling_ = ConstrainedColumns(H_, fixed_);
  }
  // On all threads, with the polar decompositions and the gradient at x.
  potential_.gradientAndHessian(x, gradient_, H_, HessianKind::Exact);
  coupling_.setValues(H_);
  gradientX_ = x;
  gradientCurrent_ = true;
  VecX unused = VecX::Zero(x.size());
  eliminateDirichlet(H_, unused, fixed_, VecX::Zero(x.size()));
  hessianAt_ = x;
  hessianCurrent_ = true;
}

bool FaceSolver::havePreconditioner() const {
  if (factorizedAt_.size() == 0) return false;  // factorizeAt() never ran
  return splitFactorization_ || (!indefinite_ && newton_.lastExactFactorization() != nullptr);
}

bool FaceSolver::solveNear(const MatX& rhs, MatX& solution) {
  ++preconditionedSolves_;
  // AP = H_ P by rows on all threads: H_ is symmetric, so row j is column j (each entry of
  // AP one dot product in column order, the same bits on any thread count). In place and
  // all columns per pass: SymmetricProduct would copy H_'s values at every try and pass
  // over them once per column (7 ms more per bench-face solve).
  const auto multiply = [&](const MatX& P, MatX& AP) {
    AP.resize(P.rows(), P.cols());
    forEachRangeInParallel(static_cast<int>(H_.outerSize()), 0, [&](int begin, int end) {
      for (int j = begin; j < end; ++j)
        for (Eigen::Index c = 0; c < P.cols(); ++c) {
          double sum = 0.0;
          for (SparseMatrix::InnerIterator it(H_, j); it; ++it) sum += it.value() * P(it.row(), c);
          AP(j, c) = sum;
        }
    });
  };
  const PcgResult r = conjugateGradientColumns(multiply,
                                               [&](const MatX& R, MatX& Z) { Z = solveEliminated(R); }, rhs,
                                               solution, nearby_.tolerance, nearby_.maxIterations);
  return r.converged && solution.allFinite();
}

const VecX& FaceSolver::gradientAt(const VecX& x) {
  if (!gradientCurrent_ || gradientX_.size() != x.size() || gradientX_ != x) {
    gradientCurrent_ = false;
    potential_.gradient(x, gradient_);
    gradientX_ = x;
    gradientCurrent_ = true;
  }
  return gradient_;
}

MatX FaceSolver::solveEliminated(MatX rhs) const {
  MatX out;
  if (splitFactorization_) {
    split_.solveInPlace(rhs);
    out = std::move(rhs);
  } else {
    out = indefinite_ ? MatX(indefiniteSolver_.solve(rhs)) : newton_.lastExactFactorization()->solveColumns(rhs);
  }
  if (!out.allFinite()) throw SolveError("face: non-finite solution of the equilibrium Hessian system");
  return out;
}

FaceAdjoint FaceSolver::adjoint(const VecX& x, const JawPose& pose, const VecX& lossGradient, VecX* newtonStep) {
  const bool nearby = nearby_.maxIterations > 0 && !factorizationCurrentAt(x) && havePreconditioner();
  if (nearby)
    assembleHessianAt(x);  // with the gradient
  else
    factorizeAt(x);
  MatX rhs(x.size(), newtonStep ? 2 : 1);
  rhs.col(0) = lossGradient;
  if (newtonStep) rhs.col(1) = -gradientAt(x);
  zeroConstrained(rhs, fixed_);
  MatX solution;
  if (!nearby || !solveNear(rhs, solution)) {
    factorizeAt(x);
    solution = solveEliminated(std::move(rhs));
  }
  FaceAdjoint out;
  out.lambda = solution.col(0);
  zeroConstrained(out.lambda, fixed_);
  if (newtonStep) *newtonStep = solution.col(1);
  out.tetActivations = potential_.activationAdjoint(x, out.lambda);
  // Attached dofs: dL/dx_c - (H lambda)_c, chained through the jaw pose (only the tets
  // at mandible nodes reach those rows).
  const VecX Hl = potential_.exactHessianProduct(x, out.lambda, &jawTets_);
  for (int n : model_.jawNodes) {
    const Vec3 g = lossGradient.segment<3>(3 * n) - Hl.segment<3>(3 * n);
    out.jaw += jawPositionJacobian(model_.jaw, pose, model_.mesh.vertices.row(n).transpose()).transpose() * g;
  }
  return out;
}

MatX FaceSolver::sensitivity(const VecX& x, MatX forceDerivative, const MatX& attachedMotion, int firstMovingColumn) {
  if (forceDerivative.rows() != x.size() || attachedMotion.rows() != x.size() || firstMovingColumn < 0 ||
      firstMovingColumn + attachedMotion.cols() > forceDerivative.cols())
    throw std::logic_error("FaceSolver::sensitivity: 3N x P force derivatives and at most P moving columns expected");
  factorizeAt(x);
  MatX rhs = std::move(forceDerivative);
  for (Eigen::Index c = 0; c < rhs.cols(); ++c)  // -forceDerivative, 0 on the attached rows
    for (Eigen::Index i = 0; i < x.size(); ++i) rhs(i, c) = fixed_[i] ? 0.0 : -rhs(i, c);
  VecX motion(x.size());  // one column of attachedMotion on the attached dofs, 0 elsewhere
  for (Eigen::Index c = 0; c < attachedMotion.cols(); ++c) {
    for (Eigen::Index i = 0; i < x.size(); ++i) motion[i] = fixed_[i] ? attachedMotion(i, c) : 0.0;
    if (motion.squaredNorm() == 0.0) continue;
    auto column = rhs.col(firstMovingColumn + c);
    if (hessianCurrentAt(x)) {
      coupling_.subtractProduct(motion, column);  // H_fc motion_c, kept from the assembly
    } else {  // Newton's factorization reused: no Hessian assembled at x
      column -= potential_.exactHessianProduct(x, motion);
      zeroConstrained(column, fixed_);
    }
  }
  MatX dx = solveEliminated(std::move(rhs));
  for (Eigen::Index c = 0; c < attachedMotion.cols(); ++c)
    for (Eigen::Index i = 0; i < x.size(); ++i)
      if (fixed_[i]) dx(i, firstMovingColumn + c) = attachedMotion(i, c);
  return dx;
}

MatX FaceSolver::solveFreeDofs(const VecX& x, const MatX& rhs) {
  factorizeAt(x);
  MatX b = rhs;
  zeroConstrained(b, fixed_);
  return solveEliminated(std::move(b));
}

}  // namespace softfit::face

#pragma once
// Quasi-static equilibrium of the face (projected Newton, forward/solvers) with the
// skull fixed and the mandible nodes on the jaw pose, and its adjoint: for a loss L(x)
// at the equilibrium, solve H lambda = dL/dx on the free dofs with the exact Hessian and
// return dL/da_i = -lambda^T d(grad E)/da_i per tet and dL/d(jaw pose)
// (docs/theory.rst, section 3, implicit function theorem).
#include <Eigen/SparseCholesky>
#include <functional>
#include <vector>

#include "face/face_potential.h"
#include "forward/solvers/cholesky_solver.h"
#include "forward/solvers/dirichlet_elimination.h"
#include "forward/solvers/two_domain_cholesky.h"

namespace softfit::face {

struct FaceAdjoint {
  std::vector<Vec6> tetActivations;  // dL/da_i
  JawPose jaw = JawPose::Zero();     // dL/d pose
  VecX lambda;                       // adjoint vector (0 on attached dofs)
};

class FaceSolver {
 public:
  explicit FaceSolver(const FaceModel& model, NewtonOptions options = defaultOptions());
  static NewtonOptions defaultOptions();

  const FaceModel& model() const { return model_; }
  FacePotential& potential() { return potential_; }
  const DofMask& attachedDofs() const { return fixed_; }

  // Equilibrium for the per-tet activations and jaw pose. x holds the initial guess
  // (empty = rest) and receives the solution. Throws SolveError when Newton does not
  // converge or produces non-finite values.
  NewtonResult solve(const std::vector<Vec6>& tetActivations, const JawPose& pose, VecX& x);
  // Makes x, an equilibrium that solve() returned earlier for these activations and pose,
  // the current one again without solving (e.g. after solves at other trial points), as
  // if solve() had been called: adjoint() and sensitivity() then apply to it.
  void adoptEquilibrium(const std::vector<Vec6>& tetActivations, const JawPose& pose, VecX& x);

  // Adjoint at an equilibrium x computed by solve() with the same activations and pose.
  // adjoint() and sensitivity() at the same x share one factorization.
  // With newtonStep, the Newton step -H_ff^-1 grad E at x too, solved with lambda as a
  // second column (one pass over the factor instead of two).
  FaceAdjoint adjoint(const VecX& x, const JawPose& pose, const VecX& lossGradient, VecX* newtonStep = nullptr);

  // Equilibrium sensitivity dx/dq (3N x P) at an equilibrium x for P parameters that
  // change the internal force by forceDerivative (d grad E / dq at fixed x, 3N x P; its
  // attached rows are ignored) and move the attached dofs by attachedMotion (dx_c/dq,
  // read on the attached rows only): H_ff dx_f = -(forceDerivative_f + H_fc dx_c) with
  // the exact Hessian (implicit function theorem, the forward twin of adjoint()).
  // attachedMotion (3N x M) holds the columns firstMovingColumn .. firstMovingColumn+M-1
  // of dx_c/dq; the other parameters leave the attached dofs where they are.
  MatX sensitivity(const VecX& x, MatX forceDerivative, const MatX& attachedMotion, int firstMovingColumn = 0);

  // H_ff^{-1} rhs_f per column (0 on the attached rows), exact Hessian at the equilibrium x
  // of the last solve(): the building block of matrix-free sensitivities and adjoints.
  MatX solveFreeDofs(const VecX& x, const MatX& rhs);

  // grad E at x for the current activations: factorizeAt(x) computes it with the Hessian,
  // in the same pass over the tets, and it is kept until x changes or solve() or
  // adoptEquilibrium() set activations (as the factorization is).
  const VecX& gradientAt(const VecX& x);

  // The factorization that adjoint(), sensitivity() and solveFreeDofs() at x use, made now
  // (unless it is current). `meanwhile` (optional) runs on a second thread during a
  // numeric factorization that takes one: work at x that needs the potential or
  // gradientAt(x) but not the factorization (the potential's polar decompositions and the
  // gradient at x are computed before). On one thread
  // (defaultThreadCount()), or without a factorization to make, it runs after; before a
  // two-domain factorization (which takes both). Exceptions of either are rethrown.
  void factorizeAt(const VecX& x, const std::function<void()>& meanwhile = {});

  // On: adjoint(), sensitivity() and solveFreeDofs() at the equilibrium that solve() just
  // returned use Newton's last factorization (NewtonSolver::lastExactFactorization): the
  // exact Hessian one step before x, at most the step tolerance away, instead of
  // factorizing the Hessian at x itself. One factorization fewer per point, at a relative
  // error of about (step tolerance / element size) in the result; meant for Gauss-Newton
  // Jacobians. Off by default (exact). Elsewhere (after adoptEquilibrium(), or when
  // Newton's last step was not an exact Cholesky one) the Hessian at x is factorized.
  void setReuseNewtonFactorization(bool on) { reuseNewtonFactorization_ = on; }
  bool reuseNewtonFactorization() const { return reuseNewtonFactorization_; }
  // On (maxIterations > 0): adjoint() at an x where no factorization is current, while an
  // earlier one is at hand (meant for one made near x: the previous iterate of an outer
  // iteration; how near is the caller's to judge), does not factorize at x. It assembles
  // the exact Hessian at x and solves by conjugate gradients (all columns together),
  // preconditioned by that factorization, to a relative residual of at most `tolerance`
  // per column. When they do not get there in maxIterations, or break down, it
  // factorizes at x and solves directly. Then factorizeAt(x) factorizes the Hessian
  // already assembled. Off by default.
  struct NearbyPreconditioning {
    int maxIterations = 0;
    double tolerance = 0.0;
  };
  void setNearbyPreconditioning(NearbyPreconditioning settings) { nearby_ = settings; }
  NearbyPreconditioning nearbyPreconditioning() const { return nearby_; }
  // Numeric factorizations made so far (a reused Newton factorization not counted), and
  // systems that adjoint() solved by preconditioned conjugate gradients instead.
  int factorizationCount() const { return factorizations_; }
  int preconditionedSolveCount() const { return preconditionedSolves_; }

  // The current factorization is a TwoDomainCholesky one (systems of at least
  // kTwoDomainCholeskyRows rows that split, when they are positive definite).
  bool factorizedOnTwoDomains() const { return splitFactorization_; }

 private:
  // factorizeAt(): the exact Hessian at x with the attached dofs eliminated, factorized
  // (Cholesky with Newton's solver, or LDL^T when round-off makes it indefinite), or
  // Newton's last factorization (setReuseNewtonFactorization); then solveEliminated()
  // applies its inverse. The factorization is reused while x is unchanged and no solve()
  // or adoptEquilibrium() has run since (the Hessian depends on x and the activations).
  MatX solveEliminated(MatX rhs) const;
  // The exact Hessian at x (with the attached dofs eliminated) in H_, and the gradient at
  // x, unless they are current; factorizeAt() factorizes it.
  void assembleHessianAt(const VecX& x);
  // factorizeAt()'s factorization is the one at x (and the current activations); H_ holds
  // the Hessian at x.
  bool factorizationCurrentAt(const VecX& x) const;
  bool hessianCurrentAt(const VecX& x) const;
  // A factorization solveEliminated() can apply: the last one factorizeAt() made (or took
  // from Newton), positive definite.
  bool havePreconditioner() const;
  // H_^-1 rhs by conjugate gradients preconditioned with the current factorization
  // (nearby_); false when it does not converge.
  bool solveNear(const MatX& rhs, MatX& solution);

  const FaceModel& model_;
  FacePotential potential_;
  NewtonSolver newton_;
  bool reuseNewtonFactorization_ = false;
  VecX solvedX_;  // the equilibrium of the last solve() (empty after adoptEquilibrium)
  Eigen::SimplicialLDLT<SparseMatrix> indefiniteSolver_;
  bool indefinite_ = false;
  // Large systems (kTwoDomainCholeskyRows): the exact Hessian factorized on two cores.
  TwoDomainCholesky split_;
  bool splitRefused_ = false;  // the pattern did not split
  bool splitFactorization_ = false;  // the current factorization is split_'s
  VecX factorizedAt_;
  bool factorizationCurrent_ = false;
  VecX gradient_, gradientX_;  // gradientAt(): grad E at gradientX_, while gradientCurrent_
  bool gradientCurrent_ = false;
  SparseMatrix H_;
  VecX hessianAt_;  // H_ holds the exact Hessian at hessianAt_, while hessianCurrent_
  bool hessianCurrent_ = false;
  // H_fc at hessianAt_ (from before the elimination), for sensitivity()'s attached motion.
  ConstrainedColumns coupling_;
  NearbyPreconditioning nearby_;
  int factorizations_ = 0, preconditionedSolves_ = 0;
  DofMask fixed_;
  std::vector<char> jawTets_;  // tets with a mandible node: the rows adjoint() reads of H lambda
};

// Turns FaceSolver::setReuseNewtonFactorization on for its lifetime (a Gauss-Newton fit)
// and restores the previous setting.
class ReuseNewtonFactorization {
 public:
  explicit ReuseNewtonFactorization(FaceSolver& solver)
      : solver_(solver), previous_(solver.reuseNewtonFactorization()) {
    solver_.setReuseNewtonFactorization(true);
  }
  ~ReuseNewtonFactorization() { solver_.setReuseNewtonFactorization(previous_); }
  ReuseNewtonFactorization(const ReuseNewtonFactorization&) = delete;
  ReuseNewtonFactorization& operator=(const ReuseNewtonFactorization&) = delete;

 private:
  FaceSolver& solver_;
  bool previous_;
};

// Turns FaceSolver::setNearbyPreconditioning on for its lifetime and restores the
// previous setting.
class NearbyPreconditioningScope {
 public:
  NearbyPreconditioningScope(FaceSolver& solver, FaceSolver::NearbyPreconditioning settings)
      : solver_(solver), previous_(solver.nearbyPreconditioning()) {
    solver_.setNearbyPreconditioning(settings);
  }
  ~NearbyPreconditioningScope() { solver_.setNearbyPreconditioning(previous_); }
  NearbyPreconditioningScope(const NearbyPreconditioningScope&) = delete;
  NearbyPreconditioningScope& operator=(const NearbyPreconditioningScope&) = delete;

 private:
  FaceSolver& solver_;
  FaceSolver::NearbyPreconditioning previous_;
};

}  // namespace softfit::face

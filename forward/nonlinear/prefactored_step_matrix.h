#pragma once
// The constant SPD step matrix A = M + c D + a b^2 h^2 (L + springs) of L-BFGS (initial
// inverse) and projective dynamics (global matrix), with the Dirichlet dofs eliminated,
// factorized once and reused while the step's weights and Dirichlet mask are unchanged.
// Projective dynamics uses its own Laplacian weights (elastic_laplacian.h) and adds the
// ground springs' curvature bound (GroundContact::addCurvatureBound), so that A bounds
// the Hessian of every term from above along any step.
#include "forward/nonlinear/elastic_laplacian.h"
#include "forward/integrators/step_problem.h"

namespace softfit {

class PrefactoredStepMatrix {
 public:
  // Factorizes A for this step unless the cached factor already matches (same model,
  // energy weight a b^2 h^2, damping weight, Dirichlet mask; damped models are
  // refactorized every step since D is lagged). Returns true when it factorized.
  // Throws SolveError when A is not positive definite.
  bool prepare(const StepObjective& objective, double laplacianScale,
               LaplacianWeights weights = LaplacianWeights::Liu);
  // A^{-1} r (r must be zero on the Dirichlet dofs; so is the result).
  VecX solve(const VecX& r) const;
  void reset() { valid_ = false; }
  // True when A = S kron I3 (every 3x3 node block a multiple of the identity: lumped
  // mass, the Laplacian, isotropic springs, node-wise Dirichlet mask, no Rayleigh
  // stiffness damping): then the n x n matrix S is factorized and each solve is one
  // solve with three right-hand sides (Liu et al. 2017), ~1/9 of the factor memory,
  // with CHOLMOD's simplicial LDL^T (no BLAS call overhead on this small factor).
  bool scalar() const { return scalar_; }

 private:
  CholeskySolver cholesky_;
  bool valid_ = false, scalar_ = false;
  const PhysicalModel* model_ = nullptr;
  double energyWeight_ = 0.0, laplacianScale_ = 0.0;
  LaplacianWeights weights_ = LaplacianWeights::Liu;
  GroundPlane ground_;  // the plane the ground bound was built with (projective dynamics)
  DofMask fixed_;
  SparseMatrix laplacian_;
};

}  // namespace softfit

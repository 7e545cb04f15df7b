#pragma once
// Quasi-static equilibrium of the face (projected Newton, forward/solvers) with the
// skull fixed and the mandible nodes on the jaw pose, and its adjoint: for a loss L(x)
// at the equilibrium, solve H lambda = dL/dx on the free dofs with the exact Hessian and
// return dL/da_i = -lambda^T d(grad E)/da_i per tet and dL/d(jaw pose)
// (DESIGN.md 3, implicit function theorem).
#include <vector>

#include "face/face_potential.h"
#include "forward/solvers/cholesky_solver.h"

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

  // Adjoint at an equilibrium x computed by solve() with the same activations and pose.
  FaceAdjoint adjoint(const VecX& x, const JawPose& pose, const VecX& lossGradient);

 private:
  const FaceModel& model_;
  FacePotential potential_;
  NewtonSolver newton_;
  CholeskySolver adjointSolver_;
  SparseMatrix H_;
  DofMask fixed_;
};

}  // namespace softfit::face

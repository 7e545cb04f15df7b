#include "face/face_solver.h"

#include <Eigen/SparseCholesky>
#include <cmath>
#include <string>

#include "forward/errors.h"

namespace softfit::face {

NewtonOptions FaceSolver::defaultOptions() {
  NewtonOptions o;
  o.maxIterations = 200;
  o.stepTolerance = 1e-11;
  return o;
}

FaceSolver::FaceSolver(const FaceModel& model, NewtonOptions options)
    : model_(model), potential_(model), newton_(options), fixed_(model.attachedDofs()) {}

NewtonResult FaceSolver::solve(const std::vector<Vec6>& tetActivations, const JawPose& pose, VecX& x) {
  potential_.setActivations(tetActivations);
  if (x.size() != 3 * model_.nodeCount()) x = model_.mesh.restPositions();
  model_.applyAttachments(pose, x);
  const NewtonResult r = newton_.minimize(potential_, x, fixed_);
  if (!r.converged)
    throw SolveError("face equilibrium: Newton did not converge in " + std::to_string(r.iterations) +
                     " iterations (gradient " + std::to_string(r.gradientNorm) + ")");
  return r;
}

FaceAdjoint FaceSolver::adjoint(const VecX& x, const JawPose& pose, const VecX& lossGradient) {
  if (H_.rows() != x.size()) H_ = potential_.hessianPattern();
  potential_.hessian(x, H_, true);
  VecX rhs = lossGradient;
  eliminateDirichlet(H_, rhs, fixed_, VecX::Zero(x.size()));
  FaceAdjoint out;
  if (adjointSolver_.factorize(H_)) {
    out.lambda = adjointSolver_.solve(rhs);
  } else {
    // The exact Hessian of a (marginally) stable equilibrium may be indefinite in
    // round-off: fall back to an LDL^T factorization.
    Eigen::SimplicialLDLT<SparseMatrix> ldlt(H_);
    if (ldlt.info() != Eigen::Success) throw SolveError("face adjoint: equilibrium Hessian is singular");
    out.lambda = ldlt.solve(rhs);
  }
  zeroConstrained(out.lambda, fixed_);
  if (!out.lambda.allFinite()) throw SolveError("face adjoint: non-finite adjoint vector");
  out.tetActivations = potential_.activationAdjoint(x, out.lambda);
  // Attached dofs: dL/dx_c - (H lambda)_c, chained through the jaw pose.
  const VecX Hl = potential_.exactHessianProduct(x, out.lambda);
  for (int n : model_.jawNodes) {
    const Vec3 g = lossGradient.segment<3>(3 * n) - Hl.segment<3>(3 * n);
    out.jaw += jawPositionJacobian(model_.jaw, pose, model_.mesh.vertices.row(n).transpose()).transpose() * g;
  }
  return out;
}

}  // namespace softfit::face

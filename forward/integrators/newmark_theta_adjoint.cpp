// Reverse pass of NewmarkThetaIntegrator::step. With u = x - X, the step's residual is
//   r = (a + alpha1) M du + alpha2 K du + dt [grad E_w(x_mix; R(x_n)) + grad E_springs(x_mix) - M g]
//       - M v_n / theta + dt [J+(x_n) (du - (1 - theta) dt v_n) - f_c(x_n)]
// with du = u' - u_n, x_mix = X + theta u' + (1 - theta) u_n, K = K_w(x_n) (the warped
// small-strain stiffness) and the thesis' semi-implicit contact. lambda = A^{-1} dL/du'
// (A = dr/du' is the symmetric system matrix) and dL/dq -= lambda^T dr/dq. The element
// rotations' dependence on x_n goes through the polar-decomposition derivative.
#include <sstream>

#include "forward/errors.h"
#include "forward/integrators/newmark_theta_integrator.h"
#include "forward/integrators/newmark_velocity_update.h"

namespace softfit {

void NewmarkThetaIntegrator::adjointStep(PhysicalModel& model, const State& next, const State& current,
                                         const State* /*previous*/, double dt, StepAdjoint& adj) {
  const int n = model.dofCount();
  const double theta = theta_, a = 1.0 / (theta * dt);
  const DofMask fixed = model.fixedDofs();
  const VecX& X = model.restPositions();
  const VecX& M = model.mass();
  const VecX un = current.x - X, unext = next.x - X, du = unext - un;
  const VecX xMix = X + theta * unext + (1.0 - theta) * un;

  // Recompute the forward system at the stored state (operators are not cached here).
  NewmarkSystem system;
  assembleSystem(model, current, dt, system);
  operatorsCached_ = factorIsExact_ = false;

  // 1. v' = a (u' - u_n) - ((1 - theta) / theta) v_n.
  const VecX uBar = newmarkVelocityAdjoint(adj, fixed, theta, dt);

  // 2. lambda = A^{-1} uBar (A is symmetric). As in the forward pass, PCG with the
  // cached factor of a nearby step, refactorized when it stops being a good
  // preconditioner; an exact factorization when the system is constant.
  VecX rhs = uBar;
  eliminateDirichlet(system.A, rhs, fixed, VecX::Zero(n));
  const bool constant = !model.elastic().usesElementRotations() && !model.ground;
  // Start from the adjoint of the step reversed just before (the next in time): the
  // lambdas of neighbouring steps are close, so PCG starts near its answer.
  VecX lambda = adj.solveGuess.size() == n ? std::move(adj.solveGuess) : VecX::Zero(n);
  for (int i = 0; i < n; ++i)
    if (fixed[i]) lambda[i] = 0.0;
  auto refactor = [&] {
    if (!factor_.factorize(system.A)) {
      std::ostringstream msg;
      msg << "newmark_theta adjoint at t = " << next.time << ": system matrix is not positive definite";
      throw SolveError(msg.str());
    }
    haveFactor_ = true;
  };
  if (!constant && usesMultigrid(model)) {
    std::ostringstream what;
    what << "newmark_theta adjoint at t = " << next.time;
    int rebuilds = 0;
    const SparseMatrix* contact = model.ground && settings_.multigridContactLevels ? &system.contact : nullptr;
    multigridSolve(model, fixed, system.A, contact, rhs, lambda, rebuilds, what.str());
  } else if (constant) {
    refactor();
    lambda = factor_.solve(rhs);
  } else {
    if (!haveFactor_) refactor();
    PcgResult r = preconditionedConjugateGradient(system.A, rhs, factor_, lambda, settings_.pcgTolerance,
                                                  settings_.pcgRefactorIterations);
    if (!r.converged) {
      refactor();
      r = preconditionedConjugateGradient(system.A, rhs, factor_, lambda, settings_.pcgTolerance, 200);
    }
    if (!r.converged) {
      std::ostringstream msg;
      msg << "newmark_theta adjoint at t = " << next.time << ": PCG did not converge (relative residual "
          << r.relativeResidual << ")";
      throw SolveError(msg.str());
    }
  }

  // 3. dL/dq -= lambda^T dr/dq.
  ModelGradient& grad = *adj.parameters;
  const double alpha1 = model.damping.alpha1, alpha2 = model.damping.alpha2;
  const VecX Mlambda = M.cwiseProduct(lambda);
  // Direct x_n terms: -(a + alpha1) M - alpha2 K + (1 - theta) dt K_total (- dt J+ below).
  adj.currentX += (a + alpha1) * Mlambda + alpha2 * (K_ * lambda) - (1.0 - theta) * dt * (Ktotal() * lambda);
  adj.currentV += Mlambda / theta;
  // Element frames R(x_n): in alpha2 K du (no offset) and in dt grad E_w(x_mix).
  model.elastic().addWarpedFrameAdjoint(xMix, -dt, du, -alpha2, lambda, current.x, adj.currentX);
  // Lame parameters. The damping frames are the element rotations (identity for the
  // linear material), already set by assembleSystem.
  const std::vector<Mat3>& frames = model.elastic().rotations();
  model.elastic().addDampingParameterAdjoint(frames, du, lambda, -alpha2, grad.mu, grad.lambda);
  model.elastic().addParameterAdjoint(xMix, lambda, -dt, grad.mu, grad.lambda);
  // Mass: d r / d m = (a + alpha1) du - v_n / theta - dt g.
  VecX massBar = -((a + alpha1) * du - current.v / theta).cwiseProduct(lambda);
  for (int i = 0; i < model.nodeCount(); ++i) {
    massBar.segment<3>(3 * i) += dt * model.gravity.cwiseProduct(lambda.segment<3>(3 * i));
    grad.gravity += dt * M[3 * i] * lambda.segment<3>(3 * i);
  }
  model.addMassAdjoint(massBar, grad);
  grad.alpha1 -= du.dot(Mlambda);
  grad.alpha2 -= lambda.dot(K_ * du);
  // Contact: dt [J+(x_n) q - f_c(x_n)] with q = du - (1 - theta) dt v_n.
  if (model.ground) {
    const GroundContact& ground = *model.ground;
    const VecX q = du - (1.0 - theta) * dt * current.v;
    // Direct dependence through q: dq/du_n = -1, dq/dv_n = -(1 - theta) dt, via J+ lambda.
    SparseMatrix J = model.pattern().zeroMatrix();
    {
      BlockAssembler assembler(model.pattern(), J);
      ground.addHessian(current.x, assembler);  // J+ (the contact Hessian)
    }
    const VecX Jlambda = J * lambda;
    adj.currentX += dt * Jlambda;
    adj.currentV += (1.0 - theta) * dt * dt * Jlambda;
    ground.addSemiImplicitAdjoint(current.x, q, lambda, -dt, adj.currentX, grad.groundNormal, grad.groundOffset);
  }
  adj.solveGuess = std::move(lambda);
}

}  // namespace softfit

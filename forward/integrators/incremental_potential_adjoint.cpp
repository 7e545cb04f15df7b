// Reverse pass of IncrementalPotentialIntegrator::step (docs/theory.rst, section 3). The step
// solves r(x') = M (x' - y) + a b h^2 grad E(b x' + z) + c D (x' - r_ref) = 0; with the
// exact Hessian H = dr/dx', lambda = H^{-1} dL/dx' and every input q gets
// dL/dq -= lambda^T dr/dq.
#include <sstream>

#include "forward/errors.h"
#include "forward/integrators/step_problem.h"

namespace softfit {

void IncrementalPotentialIntegrator::adjointStep(PhysicalModel& model, const State& next, const State& current,
                                                 const State* previous, double h, StepAdjoint& adj) {
  const int n = model.dofCount();
  const bool bdf2 = settings_.type == IntegratorType::BDF2 && previous != nullptr;
  const bool trapezoid = settings_.type == IntegratorType::NewmarkTrapezoid;
  const DofMask fixed = model.fixedDofs();

  // Recompute the forward step's context from the stored states.
  const StepProblem problem = makeStepProblem(model, settings_.type, current, previous, h);
  const IncrementalPotentialCoefficients& c = problem.coefficients;
  const SparseMatrix& D = problem.damping;  // empty when the model is undamped
  const VecX& M = model.mass();
  const VecX& xNext = next.x;
  const VecX w = c.b * xNext + c.z;
  const double h2 = h * h, weight = c.a * c.b * h2;  // coefficient of grad E(w) in r

  // 1. Velocity update v' = V(x', x_n, v_n, x_{n-1}).
  VecX vBar = adj.nextV;
  zeroConstrained(vBar, fixed);  // prescribed velocities do not depend on the past
  VecX xBar = adj.nextX;
  double velocityScale;  // dv'/dx'
  if (settings_.type == IntegratorType::BackwardEuler || (settings_.type == IntegratorType::BDF2 && !bdf2)) {
    velocityScale = 1.0 / h;
    adj.currentX -= vBar / h;
  } else if (bdf2) {
    velocityScale = 1.5 / h;
    adj.currentX -= (2.0 / h) * vBar;
    adj.previousX += (0.5 / h) * vBar;
  } else {
    velocityScale = 2.0 / h;
    adj.currentX -= (2.0 / h) * vBar;
    adj.currentV -= vBar;
  }
  xBar += velocityScale * vBar;
  zeroConstrained(xBar, fixed);  // prescribed positions do not depend on the past

  // 2. lambda = H^{-1} xBar with the exact Hessian at the converged x' (the forward
  // step's objective, unfiltered).
  SparseMatrix H = model.pattern().zeroMatrix();
  StepObjective(model, problem).hessian(xNext, H, HessianKind::Exact);
  const bool damped = model.damping.active();
  VecX rhs = xBar;
  eliminateDirichlet(H, rhs, fixed, VecX::Zero(n));
  if (!adjointSolver_.factorize(H)) {
    std::ostringstream msg;
    msg << integratorTypeName(settings_.type) << " adjoint at t = " << next.time
        << ": the step's exact Hessian is not positive definite (the forward step is not at a strict minimum)";
    throw SolveError(msg.str());
  }
  const VecX lambda = adjointSolver_.solve(rhs);

  // 3. dL/dq -= lambda^T dr/dq for every input q.
  ModelGradient& grad = *adj.parameters;
  VecX massBar = VecX::Zero(n);
  const double yFromX = bdf2 ? 4.0 / 3.0 : 1.0;
  const double yFromV = bdf2 ? 8.0 * h / 9.0 : h;
  const VecX Mlambda = M.cwiseProduct(lambda);
  // r contains -M y.
  adj.currentX += yFromX * Mlambda;
  adj.currentV += yFromV * Mlambda;
  if (bdf2) {
    adj.previousX -= Mlambda / 3.0;
    adj.previousV -= (2.0 * h / 9.0) * Mlambda;
  }
  if (trapezoid) {
    // y contains -h^2/4 M^{-1} grad E(x_n): r contains +h^2/4 grad E(x_n) (frame from x_n).
    model.addPotentialHessianProduct(current.x, lambda, -0.25 * h2, adj.currentX);
    model.elastic().addRotationAdjoint(current.x, lambda, current.x, -0.25 * h2, adj.currentX);
    model.addPotentialParameterAdjoint(current.x, lambda, -0.25 * h2, grad, massBar);
  }
  // r contains a b h^2 grad E(b x' + z) with z = x_n / 2 for the midpoint rule and the
  // warped frames taken from x_n.
  if (settings_.type == IntegratorType::ImplicitMidpoint)
    model.addPotentialHessianProduct(w, lambda, -0.5 * weight, adj.currentX);
  model.elastic().addRotationAdjoint(w, lambda, current.x, -weight, adj.currentX);
  model.addPotentialParameterAdjoint(w, lambda, -weight, grad, massBar);
  // M (x' - y): d/dm = x' - y (y's own M^{-1} term was handled above).
  VecX inertial = xNext - c.y;
  if (trapezoid) {
    VecX potentialGradient = VecX::Zero(n);
    model.addPotentialGradient(current.x, potentialGradient);
    inertial -= 0.25 * h2 * potentialGradient.cwiseQuotient(M);  // y without its M^{-1} part
  }
  massBar -= inertial.cwiseProduct(lambda);
  // c D(x_n) (x' - r_ref), D = alpha1 M + alpha2 K_w(x_n). The alpha gradients are
  // needed also where the damping is currently zero.
  const double cd = c.dampingWeight, alpha1 = model.damping.alpha1, alpha2 = model.damping.alpha2;
  const VecX d = xNext - c.dampingReference;
  if (damped) {
    const VecX Dlambda = D * lambda;
    adj.currentX += cd * yFromX * Dlambda;  // r_ref = x_n or (4 x_n - x_{n-1}) / 3
    if (bdf2) adj.previousX -= (cd / 3.0) * Dlambda;
    massBar -= (cd * alpha1) * d.cwiseProduct(lambda);
  }
  grad.alpha1 -= cd * d.dot(Mlambda);
  const std::vector<Mat3> frames = model.elastic().dampingFrames(current.x);
  SparseMatrix K = model.pattern().zeroMatrix();
  {
    BlockAssembler assembler(model.pattern(), K);
    model.elastic().addDampingStiffness(frames, assembler);
  }
  grad.alpha2 -= cd * lambda.dot(K * d);
  if (alpha2 != 0.0) {
    model.elastic().addDampingParameterAdjoint(frames, d, lambda, -cd * alpha2, grad.mu, grad.lambda);
    model.elastic().addDampingRotationAdjoint(d, lambda, current.x, -cd * alpha2, adj.currentX);
  }
  model.addMassAdjoint(massBar, *adj.parameters);
}

}  // namespace softfit

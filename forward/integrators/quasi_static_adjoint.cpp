// Reverse pass of QuasiStaticSolver::step: r(x') = grad E(x'; R(x_n)) = 0, v' = (x' - x_n)/dt.
#include <sstream>

#include "forward/errors.h"
#include "forward/integrators/quasi_static_solver.h"

namespace softfit {

void QuasiStaticSolver::adjointStep(PhysicalModel& model, const State& next, const State& current,
                                    const State* /*previous*/, double dt, StepAdjoint& adj) {
  const int n = model.dofCount();
  const DofMask fixed = model.fixedDofs();
  model.elastic().updateRotations(current.x);
  VecX vBar = adj.nextV;
  zeroConstrained(vBar, fixed);
  VecX xBar = adj.nextX + vBar / dt;
  adj.currentX -= vBar / dt;
  zeroConstrained(xBar, fixed);

  SparseMatrix H = model.pattern().zeroMatrix();
  {
    BlockAssembler assembler(model.pattern(), H);
    model.addPotentialHessian(next.x, assembler, EigenvalueFilter::None, 0.0);
  }
  VecX rhs = xBar;
  eliminateDirichlet(H, rhs, fixed, VecX::Zero(n));
  if (!adjointSolver_.factorize(H)) {
    std::ostringstream msg;
    msg << "quasi_static adjoint at t = " << next.time << ": the exact Hessian is not positive definite";
    throw SolveError(msg.str());
  }
  const VecX lambda = adjointSolver_.solve(rhs);
  VecX massBar = VecX::Zero(n);
  model.addPotentialParameterAdjoint(next.x, lambda, -1.0, *adj.parameters, massBar);
  model.addMassAdjoint(massBar, *adj.parameters);
  model.elastic().addRotationAdjoint(next.x, lambda, current.x, -1.0, adj.currentX);
}

}  // namespace softfit

#include "forward/integrators/newmark_theta_integrator.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "forward/errors.h"
#include "forward/integrators/newmark_velocity_update.h"

namespace softfit {

NewmarkThetaIntegrator::NewmarkThetaIntegrator(const IntegratorSettings& settings)
    : theta_(settings.theta), settings_(settings) {
  if (!(theta_ >= 0.5 && theta_ < 1.0)) {
    std::ostringstream msg;
    msg << "integrator.theta = " << theta_ << ": must be in [0.5, 1)";
    throw InputError(msg.str());
  }
}

namespace {

// Contact points with softmin slope above this (within ~7 / alpha of the ground) go into
// NewmarkSystem::contact.
constexpr double kContactLevelsSlope = 1e-3;

// Whether dst has src's (compressed) structure.
bool sameStructure(const SparseMatrix& src, const SparseMatrix& dst) {
  return dst.rows() == src.rows() && dst.cols() == src.cols() && dst.nonZeros() == src.nonZeros() &&
         dst.isCompressed() && src.isCompressed() &&
         std::equal(src.outerIndexPtr(), src.outerIndexPtr() + src.outerSize() + 1, dst.outerIndexPtr());
}

// dst = src; when dst already has src's structure only the values are copied.
void copyValues(const SparseMatrix& src, SparseMatrix& dst) {
  if (sameStructure(src, dst)) {
    std::copy(src.valuePtr(), src.valuePtr() + src.nonZeros(), dst.valuePtr());
    return;
  }
  dst = src;
}

}  // namespace

void NewmarkThetaIntegrator::stiffnessProduct(const VecX& x, VecX& y) const {
  if (!stiffnessProduct_ || stiffnessProductRows_ != K_.rows() || stiffnessProductNonZeros_ != K_.nonZeros()) {
    stiffnessProduct_ = std::make_shared<SymmetricProduct>(K_, settings_.solverThreads);
    stiffnessProductRows_ = K_.rows();
    stiffnessProductNonZeros_ = K_.nonZeros();
  } else {
    stiffnessProduct_->setValues(K_);
  }
  stiffnessProduct_->apply(x, y);
}

void NewmarkThetaIntegrator::assembleOperators(PhysicalModel& model, const State& current, double dt) {
  requireNewmarkThetaMaterial(model.elastic().model());
  const double a = 1.0 / (theta_ * dt);
  const VecX& X = model.restPositions();
  const VecX& M = model.mass();

  model.elastic().updateRotations(current.x);
  if (K_.rows() != model.dofCount()) K_ = model.pattern().zeroMatrix();
  model.assembleStiffness(current.x, K_);  // exact: linear in the element frame
  // Elastic force is -K u + f_corr with f_corr = -grad E(X) (zero without rotations).
  f_ = VecX::Zero(model.dofCount());
  model.elastic().addGradient(X, f_);
  f_ = -f_;
  for (int i = 0; i < model.nodeCount(); ++i) f_.segment<3>(3 * i) += M[3 * i] * model.gravity;

  // Attachment springs: stiffness k I into K (not into damping), force k (t - X).
  hasSprings_ = !model.attachments.empty();
  if (hasSprings_) {
    copyValues(K_, Ktotal_);
    BlockAssembler assembler(model.pattern(), Ktotal_);
    model.attachments.addHessian(assembler);
    for (const auto& s : model.attachments.springs())
      f_.segment<3>(3 * s.node) += s.stiffness * (s.target - X.segment<3>(3 * s.node));
  }
  // Abase = theta dt Ktotal + alpha2 K + (a + alpha1) M, value by value (one pattern;
  // every value is overwritten below, so only the structure is copied).
  if (!sameStructure(K_, Abase_)) Abase_ = K_;
  {
    const double* kt = Ktotal().valuePtr();
    const double* k = K_.valuePtr();
    double* out = Abase_.valuePtr();
    const double c1 = theta_ * dt, c2 = model.damping.alpha2;
    for (Eigen::Index i = 0; i < Abase_.nonZeros(); ++i) out[i] = c1 * kt[i] + c2 * k[i];
  }
  BlockAssembler assembler(model.pattern(), Abase_);
  assembler.addDiagonal((a + model.damping.alpha1) * M);
  operatorsDt_ = dt;
}

VecX NewmarkThetaIntegrator::rightHandSide(const PhysicalModel& model, const State& current, double dt) const {
  const double a = 1.0 / (theta_ * dt);
  const VecX u = current.x - model.restPositions();
  const VecX& M = model.mass();
  // -(1 - theta) dt Ktotal u + alpha2 K u: one (threaded) product without springs.
  VecX Ku;
  stiffnessProduct(u, Ku);
  VecX b = ((a + model.damping.alpha1) * M).cwiseProduct(u) + M.cwiseProduct(current.v) / theta_ + dt * f_;
  if (hasSprings_) {
    b -= (1.0 - theta_) * dt * (Ktotal_ * u);
    b += model.damping.alpha2 * Ku;
  } else {
    b += (model.damping.alpha2 - (1.0 - theta_) * dt) * Ku;
  }
  return b;
}

void NewmarkThetaIntegrator::addContact(const PhysicalModel& model, const State& current, double dt,
                                        NewmarkSystem& system) const {
  // f_c(x^{n-1}) + theta dt J v^n with J = -k sigma n n^T at each contact point
  // p = sum_a w_a x_a, v^n from the Newmark update (docs/theory.rst, section 4).
  const GroundContact& ground = *model.ground;
  const GroundPlane& plane = ground.plane();
  const Mat3 nnT = plane.normal * plane.normal.transpose();
  const VecX u = current.x - model.restPositions();
  BlockAssembler assembler(model.pattern(), system.A);
  std::vector<Eigen::Triplet<double>> triplets;
  for (const ContactPoint& p : ground.points()) {
    const double d = ground.distance(current.x, p);
    const double k = ground.stiffness(p);
    const Vec3 fc = -k * softminZero(d, plane.sharpness) * plane.normal;
    const double slope = softminZeroDerivative(d, plane.sharpness);  // in (0, 1)
    const Mat3 Jplus = k * slope * nnT;
    // The multigrid's coarse levels get the springs of the points that touch (or nearly
    // touch) the ground; the others' stiffness is negligible there (preconditioner only).
    const bool touching = slope > kContactLevelsSlope;
    Vec3 up = Vec3::Zero(), vp = Vec3::Zero();
    for (size_t b = 0; b < p.nodes.size(); ++b) {
      up += p.weights[b] * u.segment<3>(3 * p.nodes[b]);
      vp += p.weights[b] * current.v.segment<3>(3 * p.nodes[b]);
    }
    const Vec3 load = dt * (fc + Jplus * (up + (1.0 - theta_) * dt * vp));
    for (size_t a = 0; a < p.nodes.size(); ++a) {
      system.b.segment<3>(3 * p.nodes[a]) += p.weights[a] * load;
      for (size_t b = 0; b < p.nodes.size(); ++b) {
        const Mat3 block = (dt * p.weights[a] * p.weights[b]) * Jplus;
        assembler.addBlock(p.nodes[a], p.nodes[b], block);
        if (touching)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) triplets.emplace_back(3 * p.nodes[a] + i, 3 * p.nodes[b] + j, block(i, j));
      }
    }
  }
  system.contact.resize(system.A.rows(), system.A.cols());
  system.contact.setFromTriplets(triplets.begin(), triplets.end());  // sums duplicates in a fixed order
}

void NewmarkThetaIntegrator::assembleSystem(PhysicalModel& model, const State& current, double dt,
                                            NewmarkSystem& system) {
  assembleOperators(model, current, dt);
  operatorsCached_ = false;
  copyValues(Abase_, system.A);
  system.b = rightHandSide(model, current, dt);
  if (model.ground) addContact(model, current, dt, system);
}

bool NewmarkThetaIntegrator::usesMultigrid(const PhysicalModel& model) const {
  if (settings_.preconditioner == PcgPreconditioner::Cholesky) return false;
  return static_cast<int>(model.nodeLattice.size()) == model.nodeCount() && model.nodeCount() > 0;
}

PcgResult NewmarkThetaIntegrator::multigridSolve(const PhysicalModel& model, const DofMask& fixed,
                                                 const SparseMatrix& A, const SparseMatrix* contact, const VecX& b,
                                                 VecX& x, int& rebuilds, const std::string& what) {
  if (!multigrid_ || multigrid_->fixed() != fixed) {
    MultigridOptions options;
    options.threads = settings_.solverThreads;
    multigrid_ = std::make_unique<MultigridPreconditioner>(model.nodeLattice, fixed, options);
    rebuildMultigrid_ = true;
  }
  auto rebuild = [&] {
    if (!multigrid_->rebuild(A, contact)) throw SolveError(what + ": system matrix is not positive definite");
    ++rebuilds;
    rebuildMultigrid_ = false;
  };
  const bool fresh = rebuildMultigrid_ || !multigrid_->built();
  if (fresh) rebuild();
  else if (!multigrid_->setFineMatrix(A, contact)) throw SolveError(what + ": system matrix is not positive definite");
  PcgResult r = preconditionedConjugateGradient(*multigrid_, b, x, settings_.pcgTolerance, settings_.pcgMaxIterations);
  if (!r.converged) {
    // Coarse levels or smoother bounds too far from A: rebuild from A, go on from x.
    const int before = r.iterations;
    rebuild();
    r = preconditionedConjugateGradient(*multigrid_, b, x, settings_.pcgTolerance, settings_.pcgMaxIterations);
    r.iterations += before;
  } else {
    if (fresh) freshIterations_ = r.iterations;
    // Converged, but slowly (past the cap, or past the growth over what fresh levels
    // needed): fresh coarse levels next time.
    const double grown = settings_.multigridRebuildGrowth * freshIterations_;
    if (r.iterations > settings_.multigridRebuildIterations || (freshIterations_ >= 0 && r.iterations > grown))
      rebuildMultigrid_ = true;
  }
  if (!r.converged) {
    std::ostringstream msg;
    msg << what << ": PCG (multigrid) did not converge (relative residual " << r.relativeResidual
        << (r.breakdown ? ", preconditioner not positive definite" : "") << ")";
    throw SolveError(msg.str());
  }
  return r;
}

State NewmarkThetaIntegrator::step(PhysicalModel& model, const State& current, const State* previous, double dt) {
  const VecX& X = model.restPositions();
  // Without rotations and contact the system matrix is the same every step: assemble
  // and factorize it once, then each step is one right-hand side and one back-solve.
  const bool constant = !model.elastic().usesElementRotations() && !model.ground;
  last_ = StepStatistics{};
  if (!constant || !operatorsCached_ || operatorsDt_ != dt) {
    assembleOperators(model, current, dt);
    operatorsCached_ = constant;
    factorIsExact_ = false;
  }
  system_.b = rightHandSide(model, current, dt);
  if (!constant) {
    // Abase_ is reassembled (every value) at the next step: hand its values over.
    Abase_.swap(system_.A);  // Eigen 3.4 SparseMatrix has no move: std::swap would copy
  } else if (!factorIsExact_) {
    copyValues(Abase_, system_.A);
  }
  if (model.ground) addContact(model, current, dt, system_);

  State next;
  next.time = current.time + dt;
  VecX prescribed = current.x;
  model.dirichlet.applyPositions(next.time, prescribed);
  const VecX prescribedU = prescribed - X;
  const DofMask fixed = model.fixedDofs();

  // Initial guess for PCG: u_n + theta dt v' + (1 - theta) dt v_n (the Newmark update)
  // with v' extrapolated linearly from v_{n-1} and v_n (constant velocity at the start).
  VecX un = current.x - X + dt * current.v;
  if (previous) un += theta_ * dt * (current.v - previous->v);
  if (constant) {
    if (!factorIsExact_) {
      eliminateDirichlet(system_.A, system_.b, fixed, prescribedU);
      if (!factor_.factorize(system_.A)) throw SolveError("newmark_theta: system matrix is not positive definite");
      haveFactor_ = factorIsExact_ = true;
      last_.factorizations = 1;
    } else {
      // Same elimination on b alone: b -= Abase (prescribed at fixed dofs), b_c = u_c.
      VecX known = VecX::Zero(model.dofCount());
      for (int i = 0; i < known.size(); ++i)
        if (fixed[i]) known[i] = prescribedU[i];
      if (known.cwiseAbs().maxCoeff() > 0.0) system_.b -= Abase_ * known;  // skip for nodes fixed at rest
      for (int i = 0; i < known.size(); ++i)
        if (fixed[i]) system_.b[i] = prescribedU[i];
    }
    un = factor_.solve(system_.b);
    last_.iterations = 1;
  } else if (usesMultigrid(model)) {
    eliminateDirichlet(system_.A, system_.b, fixed, prescribedU);
    std::ostringstream what;
    what << "newmark_theta step to t = " << next.time;
    const SparseMatrix* contact = model.ground && settings_.multigridContactLevels ? &system_.contact : nullptr;
    const PcgResult r =
        multigridSolve(model, fixed, system_.A, contact, system_.b, un, last_.factorizations, what.str());
    last_.iterations = r.iterations;
    last_.residual = r.relativeResidual;
    last_.converged = r.converged;
  } else {
    eliminateDirichlet(system_.A, system_.b, fixed, prescribedU);
    if (!haveFactor_) {
      if (!factor_.factorize(system_.A)) throw SolveError("newmark_theta: system matrix is not positive definite");
      haveFactor_ = true;
      last_.factorizations = 1;
    }
    PcgResult r = preconditionedConjugateGradient(system_.A, system_.b, factor_, un, settings_.pcgTolerance,
                                                  settings_.pcgRefactorIterations);
    if (!r.converged) {
      // The cached preconditioner is too stale: refactorize at this step and retry.
      if (!factor_.factorize(system_.A)) throw SolveError("newmark_theta: system matrix is not positive definite");
      ++last_.factorizations;
      const int before = r.iterations;
      r = preconditionedConjugateGradient(system_.A, system_.b, factor_, un, settings_.pcgTolerance, 200);
      r.iterations += before;
    }
    last_.iterations = r.iterations;
    last_.residual = r.relativeResidual;
    last_.converged = r.converged;
    if (!r.converged) {
      std::ostringstream msg;
      msg << "newmark_theta step to t = " << next.time << ": PCG did not converge (relative residual "
          << r.relativeResidual << ")";
      throw SolveError(msg.str());
    }
  }
  if (!un.allFinite()) throw SolveError("newmark_theta: non-finite displacement at t = " + std::to_string(next.time));
  const VecX uPrev = current.x - X;
  next.x = X + un;
  next.v = newmarkVelocity(un, uPrev, current.v, theta_, dt);
  model.dirichlet.applyVelocities(next.time, next.v);
  return next;
}

}  // namespace softfit

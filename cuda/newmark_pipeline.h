#pragma once
// The Newmark-theta step and adjoint as a sequence of kernels (newmark_kernels.h) over
// an executor: CudaExecutor (cuda_executor.cuh, one thread per item) or HostExecutor
// (serial). T is the storage / arithmetic precision (double or float); reductions
// accumulate in double. Instantiated in newmark_device_backend.cu and
// newmark_host_backend.cpp.
//
// Step (newmark_theta_integrator.cpp): rotations R_e = polar(F_avg(x)) -> K (gather of
// R K0 R^T) -> rest force (warped) -> contact loads -> A, b -> Dirichlet elimination ->
// block-Jacobi PCG from u = x - X. Adjoint (newmark_theta_adjoint.cpp): the same
// assembly at x_n, lambda = A^-1 uBar by PCG (A is symmetric), then element, contact,
// node and density kernels and five fixed-order sums.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cuda/newmark_backend.h"
#include "cuda/newmark_kernels.h"
#include "forward/errors.h"

namespace softfit::gpu {

template <typename Exec, typename T>
class NewmarkPipeline final : public NewmarkBackend {
  template <typename U>
  using Buffer = typename Exec::template Buffer<U>;

 public:
  void load(const PackedNewmarkModel& p) override {
    N_ = p.nodeCount;
    E_ = p.elementCount;
    B_ = p.blockCount();
    P_ = p.pointCount;
    warped_ = p.warped;
    hasFixed_ = p.hasFixed;
    rowStart_.assign(p.rowStart);
    column_.assign(p.column);
    diagonal_.assign(p.diagonal);
    blockRow_.assign(p.blockRow);
    slotStart_.assign(p.slotStart);
    slotNode_.assign(p.slotNode);
    lame_.assign(p.lame);
    stiffnessStart_.assign(p.stiffnessStart);
    stiffness_.assign(p.stiffness);
    averageGradient_.assign(p.averageGradient);
    restForceShape_.assign(p.restForceShape);
    massWeight_.assign(p.massWeight);
    quadratureStart_.assign(p.quadratureStart);
    quadratureWeight_.assign(p.quadratureWeight);
    shapeGradient_.assign(p.shapeGradient);
    shapeGradientStart_.assign(p.shapeGradientStart);
    blockContributionStart_.assign(p.blockContributionStart);
    contributionElement_.assign(p.contributionElement);
    contributionOffset_.assign(p.contributionOffset);
    nodeSlotStart_.assign(p.nodeSlotStart);
    nodeSlot_.assign(p.nodeSlot);
    rest_.assign(p.rest);
    mass_.assign(p.mass);
    springStiffness_.assign(p.springStiffness);
    springForce_.assign(p.springForce);
    fixed_.assign(p.fixed);
    pointStart_.assign(p.pointStart);
    pointNode_.assign(p.pointNode);
    pointWeight_.assign(p.pointWeight);
    pointArea_.assign(p.pointArea);
    nodeEntryStart_.assign(p.nodeEntryStart);
    nodeEntry_.assign(p.nodeEntry);
    entryPoint_.assign(p.entryPoint);
    blockContactStart_.assign(p.blockContactStart);
    blockContactPoint_.assign(p.blockContactPoint);
    blockContactWeight_.assign(p.blockContactWeight);

    const std::size_t n = 3 * static_cast<std::size_t>(N_);
    for (Buffer<T>* b : {&x_, &v_, &u_, &b_, &r_, &z_, &p_, &Ap_, &xNext_, &du_, &xMix_, &lambda_, &xBar_, &vBar_,
                         &prescribed_})
      b->resize(n);
    R_.resize(9 * static_cast<std::size_t>(E_ > 0 ? E_ : 1));
    K_.resize(9 * static_cast<std::size_t>(B_));
    A_.resize(9 * static_cast<std::size_t>(B_));
    inverse_.resize(9 * static_cast<std::size_t>(N_));
    slotVector_.resize(3 * static_cast<std::size_t>(p.slotCount()));
    pointA_.resize(P_ > 0 ? P_ : 1);
    pointB_.resize(P_ > 0 ? P_ : 1);
    muBar_.resize(E_ > 0 ? E_ : 1);
    lambdaBar_.resize(E_ > 0 ? E_ : 1);
    densityBar_.resize(E_ > 0 ? E_ : 1);
    massBarNode_.resize(N_ > 0 ? N_ : 1);
    loaded_ = true;
  }

  PcgReport step(const NewmarkStepParameters& s, const double* x, const double* v, const double* prescribed,
                 double* uNext) override {
    requireLoaded();
    const std::size_t n = 3 * static_cast<std::size_t>(N_);
    x_.assign(x, n);
    v_.assign(v, n);
    const StepScalars<T> S = scalars(s);
    const ModelView<T> M = view();
    exec_.forEach(static_cast<int>(n), Displacement<T>{x_.data(), rest_.data(), u_.data()});
    assemble(M, S, x_.data(), u_.data(), v_.data());
    exec_.forEach(N_, RightHandSide<T>{M, S, K_.data(), u_.data(), v_.data(), slotVector_.data(), pointA_.data(),
                                       b_.data()});
    if (hasFixed_) {
      if (prescribed == nullptr) throw SolveError("newmark_theta (GPU): prescribed displacements missing");
      prescribed_.assign(prescribed, n);
      exec_.forEach(N_, EliminateDirichlet<T>{M, prescribed_.data(), A_.data(), b_.data()});
    }
    // Initial guess u_n (newmark_theta_integrator.cpp); x_ is reused as the iterate.
    exec_.forEach(static_cast<int>(n), Displacement<T>{x_.data(), rest_.data(), x_.data()});
    const PcgReport report = solve(M, s, x_);
    x_.copyTo(uNext, n);
    return report;
  }

  void adjoint(const NewmarkStepParameters& s, const double* x, const double* v, const double* xNext,
               const double* uBar, NewmarkAdjointOutputs& out) override {
    requireLoaded();
    const std::size_t n = 3 * static_cast<std::size_t>(N_);
    x_.assign(x, n);
    v_.assign(v, n);
    xNext_.assign(xNext, n);
    b_.assign(uBar, n);
    const StepScalars<T> S = scalars(s);
    const ModelView<T> M = view();
    exec_.forEach(static_cast<int>(n), Displacement<T>{x_.data(), rest_.data(), u_.data()});
    assemble(M, S, x_.data(), u_.data(), v_.data());
    if (hasFixed_) {
      prescribed_.setZero();
      exec_.forEach(N_, EliminateDirichlet<T>{M, prescribed_.data(), A_.data(), b_.data()});
    }
    lambda_.setZero();
    out.solve = solve(M, s, lambda_);
    if (!out.solve.converged) return;

    exec_.forEach(static_cast<int>(n),
                  AdjointStates<T>{S.theta, x_.data(), xNext_.data(), rest_.data(), du_.data(), xMix_.data()});
    exec_.forEach(E_, ElementAdjoint<T>{M, S, warped_ ? R_.data() : nullptr, x_.data(), xMix_.data(), du_.data(),
                                        lambda_.data(), slotVector_.data(), muBar_.data(), lambdaBar_.data()});
    Sums<4> ground{{0.0, 0.0, 0.0, 0.0}};
    if (S.contact && P_ > 0)
      ground = exec_.template sum<4>(P_, ContactAdjoint<T>{M, S, x_.data(), du_.data(), v_.data(), lambda_.data(),
                                                           pointA_.data(), pointB_.data()});
    const Sums<5> sums = exec_.template sum<5>(
        N_, NodeAdjoint<T>{M, S, K_.data(), lambda_.data(), du_.data(), v_.data(), slotVector_.data(), pointA_.data(),
                           pointB_.data(), xBar_.data(), vBar_.data(), massBarNode_.data()});
    exec_.forEach(E_, DensityAdjoint<T>{M, massBarNode_.data(), densityBar_.data()});

    out.xBar.resize(n);
    out.vBar.resize(n);
    out.muBar.resize(E_);
    out.lambdaBar.resize(E_);
    out.densityBar.resize(E_);
    xBar_.copyTo(out.xBar.data(), n);
    vBar_.copyTo(out.vBar.data(), n);
    muBar_.copyTo(out.muBar.data(), E_);
    lambdaBar_.copyTo(out.lambdaBar.data(), E_);
    densityBar_.copyTo(out.densityBar.data(), E_);
    out.alpha1 = -sums.v[0];
    out.alpha2 = -sums.v[1];
    for (int k = 0; k < 3; ++k) {
      out.gravity[k] = s.dt * sums.v[2 + k];
      out.normal[k] = ground.v[k];
    }
    out.offset = ground.v[3];
  }

  void lastSystem(std::vector<double>& K, std::vector<double>& A, std::vector<double>& b) const override {
    K.resize(K_.size());
    A.resize(A_.size());
    b.resize(b_.size());
    K_.copyTo(K.data(), K.size());
    A_.copyTo(A.data(), A.size());
    b_.copyTo(b.data(), b.size());
  }
  void lastRotations(std::vector<double>& R) const override {
    R.resize(9 * static_cast<std::size_t>(E_));
    R_.copyTo(R.data(), R.size());
  }

 private:
  void requireLoaded() const {
    if (!loaded_) throw SolveError("newmark_theta (GPU): model not loaded");
  }

  StepScalars<T> scalars(const NewmarkStepParameters& s) const {
    StepScalars<T> S;
    S.dt = T(s.dt);
    S.theta = T(s.theta);
    S.a = T(1.0 / (s.theta * s.dt));
    S.alpha1 = T(s.alpha1);
    S.alpha2 = T(s.alpha2);
    S.contact = s.contact && P_ > 0;
    for (int k = 0; k < 3; ++k) {
      S.gravity[k] = T(s.gravity[k]);
      S.normal[k] = T(s.normal[k]);
    }
    S.offset = T(s.offset);
    S.stiffness = T(s.stiffness);
    S.sharpness = T(s.sharpness);
    return S;
  }

  ModelView<T> view() {
    ModelView<T> M;
    M.nodeCount = N_;
    M.elementCount = E_;
    M.blockCount = B_;
    M.pointCount = P_;
    M.warped = warped_;
    M.rowStart = rowStart_.data();
    M.column = column_.data();
    M.diagonal = diagonal_.data();
    M.blockRow = blockRow_.data();
    M.slotStart = slotStart_.data();
    M.slotNode = slotNode_.data();
    M.lame = lame_.data();
    M.stiffnessStart = stiffnessStart_.data();
    M.stiffness = stiffness_.data();
    M.averageGradient = averageGradient_.data();
    M.restForceShape = restForceShape_.data();
    M.massWeight = massWeight_.data();
    M.quadratureStart = quadratureStart_.data();
    M.quadratureWeight = quadratureWeight_.data();
    M.shapeGradient = shapeGradient_.data();
    M.shapeGradientStart = shapeGradientStart_.data();
    M.blockContributionStart = blockContributionStart_.data();
    M.contributionElement = contributionElement_.data();
    M.contributionOffset = contributionOffset_.data();
    M.nodeSlotStart = nodeSlotStart_.data();
    M.nodeSlot = nodeSlot_.data();
    M.rest = rest_.data();
    M.mass = mass_.data();
    M.springStiffness = springStiffness_.data();
    M.springForce = springForce_.data();
    M.fixed = fixed_.data();
    M.pointStart = pointStart_.data();
    M.pointNode = pointNode_.data();
    M.pointWeight = pointWeight_.data();
    M.pointArea = pointArea_.data();
    M.nodeEntryStart = nodeEntryStart_.data();
    M.nodeEntry = nodeEntry_.data();
    M.entryPoint = entryPoint_.data();
    M.blockContactStart = blockContactStart_.data();
    M.blockContactPoint = blockContactPoint_.data();
    M.blockContactWeight = blockContactWeight_.data();
    return M;
  }

  // Rotations, K, rest force, contact loads and A at the state (x, u = x - X, v).
  void assemble(const ModelView<T>& M, const StepScalars<T>& S, const T* x, const T* u, const T* v) {
    if (warped_) exec_.forEach(E_, ElementRotations<T>{M, x, R_.data()});
    exec_.forEach(B_, AssembleStiffness<T>{M, warped_ ? R_.data() : nullptr, K_.data()});
    if (warped_) exec_.forEach(E_, ElasticRestForce<T>{M, R_.data(), slotVector_.data()});
    if (S.contact) exec_.forEach(P_, ContactLoads<T>{M, S, x, u, v, pointA_.data(), pointB_.data()});
    exec_.forEach(B_, AssembleSystem<T>{M, S, K_.data(), pointB_.data(), A_.data()});
  }

  // Block-Jacobi PCG on A y = b_ (y holds the initial guess), ||r|| <= tol ||b||.
  PcgReport solve(const ModelView<T>& M, const NewmarkStepParameters& s, Buffer<T>& y) {
    PcgReport report;
    const int n = 3 * N_;
    const Sums<1> singular = exec_.template sum<1>(N_, BlockJacobi<T>{M, A_.data(), inverse_.data()});
    if (singular.v[0] != 0.0) throw SolveError("newmark_theta (GPU): singular diagonal block in the system matrix");
    Sums<3> start = exec_.template sum<3>(
        N_, PcgStart<T>{M, A_.data(), y.data(), b_.data(), inverse_.data(), r_.data(), z_.data(), p_.data()});
    double rz = start.v[0], rr = start.v[1];
    const double bnorm = std::sqrt(start.v[2]);
    const double tolerance = s.pcgTolerance;
    auto finish = [&](int iterations) {
      report.iterations = iterations;
      report.relativeResidual = bnorm > 0.0 ? std::sqrt(rr) / bnorm : std::sqrt(rr);
      report.converged = std::sqrt(rr) <= tolerance * bnorm && std::isfinite(rr);
      return report;
    };
    if (bnorm == 0.0) {
      y.setZero();
      rr = 0.0;
      return finish(0);
    }
    for (int it = 0; it < s.maxPcgIterations; ++it) {
      if (std::sqrt(rr) <= tolerance * bnorm) return finish(it);
      const Sums<1> pAp = exec_.template sum<1>(N_, PcgProduct<T>{M, A_.data(), p_.data(), Ap_.data()});
      if (!(pAp.v[0] > 0.0)) return finish(it);  // not positive definite, or breakdown
      const double alpha = rz / pAp.v[0];
      const Sums<2> upd = exec_.template sum<2>(
          N_, PcgUpdate<T>{M, T(alpha), p_.data(), Ap_.data(), inverse_.data(), y.data(), r_.data(), z_.data()});
      const double beta = upd.v[0] / rz;
      rz = upd.v[0];
      rr = upd.v[1];
      if (!std::isfinite(rr)) return finish(it + 1);
      exec_.forEach(n, PcgDirection<T>{T(beta), z_.data(), p_.data()});
    }
    return finish(s.maxPcgIterations);
  }

  Exec exec_;
  bool loaded_ = false, warped_ = false, hasFixed_ = false;
  int N_ = 0, E_ = 0, B_ = 0, P_ = 0;
  Buffer<int> rowStart_, column_, diagonal_, blockRow_, slotStart_, slotNode_, stiffnessStart_, quadratureStart_,
      shapeGradientStart_, blockContributionStart_, contributionElement_, contributionOffset_, nodeSlotStart_,
      nodeSlot_, pointStart_, pointNode_, nodeEntryStart_, nodeEntry_, entryPoint_, blockContactStart_,
      blockContactPoint_;
  Buffer<char> fixed_;
  Buffer<T> lame_, stiffness_, averageGradient_, restForceShape_, massWeight_, quadratureWeight_, shapeGradient_, rest_,
      mass_, springStiffness_, springForce_, pointWeight_, pointArea_, blockContactWeight_;
  Buffer<T> x_, v_, u_, b_, r_, z_, p_, Ap_, xNext_, du_, xMix_, lambda_, xBar_, vBar_, prescribed_;
  Buffer<T> R_, K_, A_, inverse_, slotVector_, pointA_, pointB_, muBar_, lambdaBar_, densityBar_, massBarNode_;
};

}  // namespace softfit::gpu

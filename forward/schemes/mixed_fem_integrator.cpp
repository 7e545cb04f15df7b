#include "forward/schemes/mixed_fem_integrator.h"

#include <cmath>
#include <sstream>

#include "forward/errors.h"
#include "forward/math/psd_projection.h"

namespace softfit {

namespace {

IntegratorSettings schemeSettings(const MixedFemSettings& settings) {
  switch (settings.scheme) {
    case IntegratorType::BackwardEuler:
    case IntegratorType::BDF2:
    case IntegratorType::ImplicitMidpoint:
    case IntegratorType::NewmarkTrapezoid: break;
    default:
      throw InputError("mixed_fem.scheme: " + integratorTypeName(settings.scheme) +
                       " is not an incremental-potential scheme");
  }
  IntegratorSettings s;
  s.type = settings.scheme;
  return s;
}

}  // namespace

struct MixedFemIntegrator::Workspace {
  MaterialModel material = MaterialModel::Linear;
  std::unique_ptr<StretchEnergy> energy;
  std::vector<int> firstPoint;  // per element, index of its first quadrature point
  std::vector<MatX> J;          // per point, b ds/du (6 x 3n)
  std::vector<Vec6> stretchOfX, g, ds;
  std::vector<Mat6> H;
  SparseMatrix A, D;
  CholeskySolver cholesky;
};

MixedFemIntegrator::MixedFemIntegrator(const MixedFemSettings& settings)
    : settings_(settings), scheme_(schemeSettings(settings)), work_(std::make_unique<Workspace>()) {}

MixedFemIntegrator::~MixedFemIntegrator() = default;

void MixedFemIntegrator::reset() {
  s_.clear();
  lambda_.clear();
  work_ = std::make_unique<Workspace>();
}

void MixedFemIntegrator::adjointStep(PhysicalModel& model, const State& next, const State& current,
                                     const State* previous, double dt, StepAdjoint& adjoint) {
  scheme_.adjointStep(model, next, current, previous, dt, adjoint);
}

State MixedFemIntegrator::step(PhysicalModel& model, const State& current, const State* previous, double dt) {
  Workspace& w = *work_;
  const ElasticEnergy& elastic = model.elastic();
  const auto& elements = elastic.elements();
  const auto& lame = elastic.parameters();
  if (!w.energy || w.material != elastic.model()) {
    w.energy = makeStretchEnergy(elastic.model(), "mixed_fem: material.model");
    w.material = elastic.model();
  }
  w.firstPoint.assign(elements.size(), 0);
  int points = 0;
  for (size_t e = 0; e < elements.size(); ++e) {
    w.firstPoint[e] = points;
    points += static_cast<int>(elements[e].quadrature.size());
  }
  w.J.resize(points);
  w.stretchOfX.resize(points);
  w.g.resize(points);
  w.ds.resize(points);
  w.H.resize(points);

  const IncrementalPotentialCoefficients c = scheme_.coefficients(model, current, previous, dt);
  const double ah2 = c.a * dt * dt;
  const bool damped = model.damping.active();
  if (damped) {
    if (w.D.rows() != model.dofCount()) w.D = model.pattern().zeroMatrix();
    model.assembleDamping(current.x, w.D);
  }
  if (w.A.rows() != model.dofCount()) w.A = model.pattern().zeroMatrix();
  const VecX& M = model.mass();
  const DofMask fixed = model.fixedDofs();
  const Eigen::Index n = model.dofCount();

  // Stretch variables: carried over from the previous step, or the current stretch.
  if (static_cast<int>(s_.size()) != points) {
    s_.resize(points);
    lambda_.assign(points, Vec6::Zero());
    for (size_t e = 0; e < elements.size(); ++e)
      for (size_t q = 0; q < elements[e].quadrature.size(); ++q)
        s_[w.firstPoint[e] + q] = stretchOf(deformationGradient(elements[e], elements[e].quadrature[q], current.x));
  }

  State next;
  next.time = current.time + dt;
  next.x = c.y;
  model.dirichlet.applyPositions(next.time, next.x);
  VecX& x = next.x;

  // The merit function; `scale` receives the sum of its terms' magnitudes (the size of
  // its round-off).
  auto merit = [&](const VecX& xt, const std::vector<Vec6>& st, double& scale) {
    const VecX u = c.b * xt + c.z;
    const VecX dy = xt - c.y;
    const double inertia = 0.5 * dy.dot(M.cwiseProduct(dy)), external = ah2 * model.externalEnergy(u);
    double phi = inertia + external;
    scale = inertia + std::abs(external);
    if (damped) {
      const VecX dr = xt - c.dampingReference;
      phi += 0.5 * c.dampingWeight * dr.dot(w.D * dr);
      scale += 0.5 * c.dampingWeight * dr.dot(w.D * dr);
    }
    for (size_t e = 0; e < elements.size(); ++e) {
      const Element& el = elements[e];
      for (size_t q = 0; q < el.quadrature.size(); ++q) {
        const int k = w.firstPoint[e] + static_cast<int>(q);
        const Vec6 sx = stretchOf(deformationGradient(el, el.quadrature[q], u));
        const double elastic = ah2 * w.energy->energy(st[k], lame[e]), coupling = lambda_[k].dot(sx - st[k]);
        phi += el.quadrature[q].weight * (elastic + coupling);
        // Psi is a difference of O(mu + lambda) terms: its round-off scales with them.
        scale += el.quadrature[q].weight *
                 (ah2 * (std::abs(lame[e].mu) + std::abs(lame[e].lambda)) + std::abs(elastic) + std::abs(coupling));
      }
    }
    return phi;
  };

  info_ = MixedFemStepInfo{};
  const double stepTolerance = settings_.stepTolerance * model.characteristicLength();
  std::vector<Vec6> trialS(points);
  for (int it = 0; it < settings_.maxIterations; ++it) {
    const VecX u = c.b * x + c.z;
    // Per-point linearization.
    double residual = 0.0;
    for (size_t e = 0; e < elements.size(); ++e) {
      const Element& el = elements[e];
      for (size_t q = 0; q < el.quadrature.size(); ++q) {
        const int k = w.firstPoint[e] + static_cast<int>(q);
        const Mat3 F = deformationGradient(el, el.quadrature[q], u);
        w.stretchOfX[k] = stretchOf(F);
        w.J[k] = c.b * stretchJacobian(el, el.quadrature[q], F);
        w.g[k] = w.energy->gradient(s_[k], lame[e]);
        w.H[k] = w.energy->hessian(s_[k], lame[e]);
        projectToPsd<6>(w.H[k], settings_.stretchFilter, settings_.stretchFilterEpsilon);
        residual = std::max(residual, (w.stretchOfX[k] - s_[k]).cwiseAbs().maxCoeff());
      }
    }
    // Condensed system.
    BlockAssembler assembler(model.pattern(), w.A);
    assembler.setZero();
    model.addExternalHessian(u, assembler);
    w.A *= c.a * c.b * c.b * dt * dt;
    VecX gradExt = VecX::Zero(n);
    model.addExternalGradient(u, gradExt);
    VecX rhs = -(M.cwiseProduct(x - c.y) + c.a * c.b * dt * dt * gradExt);
    VecX gradX = -rhs;  // grad_x of the merit function, without the multiplier term yet
    if (damped) {
      const VecX dampingForce = c.dampingWeight * (w.D * (x - c.dampingReference));
      rhs -= dampingForce;
      gradX += dampingForce;
    }
    for (size_t e = 0; e < elements.size(); ++e) {
      const Element& el = elements[e];
      const int nodes = el.nodeCount();
      for (size_t q = 0; q < el.quadrature.size(); ++q) {
        const int k = w.firstPoint[e] + static_cast<int>(q);
        const double weight = ah2 * el.quadrature[q].weight;
        const MatX HJ = weight * (w.H[k] * w.J[k]);
        const MatX K = w.J[k].transpose() * HJ;
        const VecX local = w.J[k].transpose() * (weight * (w.g[k] + w.H[k] * (w.stretchOfX[k] - s_[k])));
        for (int a = 0; a < nodes; ++a) {
          rhs.segment<3>(3 * el.nodes[a]) -= local.segment<3>(3 * a);
          for (int b = 0; b < nodes; ++b) assembler.addBlock(el.nodes[a], el.nodes[b], K.block<3, 3>(3 * a, 3 * b));
        }
      }
    }
    assembler.addDiagonal(M);
    if (damped) w.A += c.dampingWeight * w.D;
    eliminateDirichlet(w.A, rhs, fixed, VecX::Zero(n));
    if (!w.cholesky.factorize(w.A)) throw SolveError("mixed FEM: condensed system is not positive definite");
    const VecX dx = w.cholesky.solve(rhs);
    if (!dx.allFinite()) throw SolveError("mixed FEM: non-finite step");

    // Local updates: ds and the new multipliers; merit slope along (dx, ds).
    double slope = 0.0, dsNorm = 0.0;
    for (size_t e = 0; e < elements.size(); ++e) {
      const Element& el = elements[e];
      VecX dxe(3 * el.nodeCount());
      for (int a = 0; a < el.nodeCount(); ++a) dxe.segment<3>(3 * a) = dx.segment<3>(3 * el.nodes[a]);
      for (size_t q = 0; q < el.quadrature.size(); ++q) {
        const int k = w.firstPoint[e] + static_cast<int>(q);
        const double weight = el.quadrature[q].weight;
        const Vec6 Jdx = w.J[k] * dxe;
        w.ds[k] = (w.stretchOfX[k] - s_[k]) + Jdx;
        lambda_[k] = ah2 * (w.g[k] + w.H[k] * w.ds[k]);
        slope += weight * (lambda_[k].dot(Jdx) + (ah2 * w.g[k] - lambda_[k]).dot(w.ds[k]));
        dsNorm = std::max(dsNorm, w.ds[k].cwiseAbs().maxCoeff());
      }
    }
    slope += gradX.dot(dx);

    // Backtracking Armijo line search on the merit function.
    double scale = 0.0, trialScale = 0.0;
    const double phi0 = merit(x, s_, scale);
    // Round-off allowance: near convergence the merit changes drown in its terms' digits.
    const double allowance = 1e-13 * scale;
    double alpha = 1.0;
    VecX trialX;
    for (int ls = 0;; ++ls) {
      trialX = x + alpha * dx;
      for (int k = 0; k < points; ++k) trialS[k] = s_[k] + alpha * w.ds[k];
      const double phi = merit(trialX, trialS, trialScale);
      if (!std::isfinite(phi) && ls == settings_.maxLineSearchSteps) throw SolveError("mixed FEM: non-finite merit");
      if ((std::isfinite(phi) && phi <= phi0 + settings_.armijo * alpha * std::min(slope, 0.0) + allowance) ||
          ls == settings_.maxLineSearchSteps)
        break;
      alpha *= settings_.backtrack;
      ++info_.lineSearchCuts;
    }
    x = trialX;
    s_.swap(trialS);
    info_.iterations = it + 1;
    // Converged on the full (not line-searched) step, so a stalled line search never passes.
    info_.stepNorm = dx.cwiseAbs().maxCoeff();
    if (info_.stepNorm < stepTolerance && residual < settings_.stretchTolerance &&
        dsNorm < settings_.stretchTolerance) {
      info_.converged = true;
      break;
    }
  }
  // Constraint residual at the returned state.
  {
    const VecX u = c.b * x + c.z;
    for (size_t e = 0; e < elements.size(); ++e)
      for (size_t q = 0; q < elements[e].quadrature.size(); ++q) {
        const int k = w.firstPoint[e] + static_cast<int>(q);
        const Vec6 sx = stretchOf(deformationGradient(elements[e], elements[e].quadrature[q], u));
        info_.constraintResidual = std::max(info_.constraintResidual, (sx - s_[k]).cwiseAbs().maxCoeff());
      }
  }
  last_ = StepStatistics{info_.iterations, info_.converged, info_.stepNorm, info_.iterations};
  if (!info_.converged && settings_.requireConvergence) {
    std::ostringstream msg;
    msg << "mixed FEM step to t = " << next.time << ": no convergence in " << info_.iterations
        << " iterations (step " << info_.stepNorm << ", stretch residual " << info_.constraintResidual << ")";
    throw SolveError(msg.str());
  }
  next.v = scheme_.velocity(x, current, previous, dt);
  model.dirichlet.applyVelocities(next.time, next.v);
  return next;
}

}  // namespace softfit

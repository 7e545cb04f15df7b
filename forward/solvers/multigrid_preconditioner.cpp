#include "forward/solvers/multigrid_preconditioner.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "forward/solvers/galerkin_plan.h"

namespace softfit {

struct MultigridPreconditioner::Level {
  const SparseMatrix* A = nullptr;
  SparseMatrix owned;  // coarse levels: the Galerkin product
  SparseMatrix correction;  // coarse levels: the projected correction included in `owned`
  SparseMatrix P, Pt;  // from the next coarser level to this one (empty on the coarsest)
  SparseMatrix nodalP;  // P per node (scalar weights), for the plan
  GalerkinPlan plan;    // the next coarser level's P^T A P from this level's A
  SymmetricProduct product;
  bool productBuilt = false;
  VecX eigenvector;  // the power iteration's last vector (warm start of the next estimate)
  std::vector<Mat3> dinv;  // inverse 3x3 diagonal blocks
  double upper = 1.0, lower = 0.1;  // smoothed interval of D^-1 A
  int dofs = 0;
  mutable VecX r, d, t, bc, xc;
};

namespace {

long long packKey(const Eigen::Vector3i& c) {
  return (static_cast<long long>(c[2]) << 42) ^ (static_cast<long long>(c[1]) << 21) ^ static_cast<long long>(c[0]);
}

// Floor to an even number (parity of lattice coordinates is what places coarse nodes).
int evenFloor(int v) { return v >= 0 ? v - (v % 2) : v - ((-v) % 2 == 0 ? 0 : 1); }

// The nodal (scalar) prolongation expanded to 3 dofs per node; prescribed fine dofs get
// explicit zeros so every level keeps the 3x3 block structure.
SparseMatrix expandToDofs(const SparseMatrix& Pn, const DofMask* fixed) {
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(3 * Pn.nonZeros());
  for (int J = 0; J < Pn.outerSize(); ++J)
    for (SparseMatrix::InnerIterator it(Pn, J); it; ++it)
      for (int c = 0; c < 3; ++c) {
        const int row = 3 * static_cast<int>(it.row()) + c;
        const bool zero = fixed && (*fixed)[row];
        triplets.emplace_back(row, 3 * J + c, zero ? 0.0 : it.value());
      }
  SparseMatrix P(3 * Pn.rows(), 3 * Pn.cols());
  P.setFromTriplets(triplets.begin(), triplets.end());
  P.makeCompressed();
  return P;
}

// P^T X P, symmetrized (as the Galerkin products of rebuild()).
SparseMatrix galerkin(const SparseMatrix& Pt, const SparseMatrix& X, const SparseMatrix& P) {
  const SparseMatrix XP = X * P;
  const SparseMatrix C = Pt * XP;
  const SparseMatrix Ct = C.transpose();
  SparseMatrix S = 0.5 * (C + Ct);
  S.makeCompressed();
  return S;
}

// A += scale * X for X's entries, which must lie in A's (compressed) pattern; false if
// one does not (A is then partly updated).
bool addInPattern(SparseMatrix& A, const SparseMatrix& X, double scale) {
  for (int c = 0; c < X.outerSize(); ++c)
    for (SparseMatrix::InnerIterator it(X, c); it; ++it) {
      const int* begin = A.innerIndexPtr() + A.outerIndexPtr()[c];
      const int* end = A.innerIndexPtr() + A.outerIndexPtr()[c + 1];
      const int* at = std::lower_bound(begin, end, static_cast<int>(it.row()));
      if (at == end || *at != it.row()) return false;
      A.valuePtr()[at - A.innerIndexPtr()] += scale * it.value();
    }
  return true;
}

void applyBlocks(const std::vector<Mat3>& blocks, const VecX& in, VecX& out) {
  out.resize(in.size());
  for (size_t i = 0; i < blocks.size(); ++i) out.segment<3>(3 * i).noalias() = blocks[i] * in.segment<3>(3 * i);
}

}  // namespace

SparseMatrix trilinearProlongation(const std::vector<Eigen::Vector3i>& nodes, std::vector<Eigen::Vector3i>& coarse) {
  const int n = static_cast<int>(nodes.size());
  coarse.clear();
  if (n == 0) return SparseMatrix();
  Eigen::Vector3i offset = nodes[0];
  for (const auto& c : nodes) offset = offset.cwiseMin(c);
  for (int a = 0; a < 3; ++a) offset[a] = evenFloor(offset[a]);
  // Per node and axis: up to two coarse coordinates with weights.
  struct Axis {
    int parent[2];
    double weight[2];
    int count;
  };
  auto axis = [&](int v, int a) {
    const int local = v - offset[a];  // >= 0, same parity as v
    Axis s{};
    if (local % 2 == 0) {
      s.parent[0] = (local / 2) + offset[a] / 2;
      s.weight[0] = 1.0;
      s.count = 1;
    } else {
      s.parent[0] = (local - 1) / 2 + offset[a] / 2;
      s.parent[1] = (local + 1) / 2 + offset[a] / 2;
      s.weight[0] = s.weight[1] = 0.5;
      s.count = 2;
    }
    return s;
  };
  std::vector<Eigen::Vector3i> keys;
  keys.reserve(2 * n);
  for (const auto& c : nodes) {
    const Axis ax = axis(c[0], 0), ay = axis(c[1], 1), az = axis(c[2], 2);
    for (int k = 0; k < az.count; ++k)
      for (int j = 0; j < ay.count; ++j)
        for (int i = 0; i < ax.count; ++i) keys.emplace_back(ax.parent[i], ay.parent[j], az.parent[k]);
  }
  auto lattice = [](const Eigen::Vector3i& a, const Eigen::Vector3i& b) {
    if (a[2] != b[2]) return a[2] < b[2];
    if (a[1] != b[1]) return a[1] < b[1];
    return a[0] < b[0];
  };
  std::sort(keys.begin(), keys.end(), lattice);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  coarse = keys;
  std::unordered_map<long long, int> id;
  id.reserve(coarse.size());
  for (size_t c = 0; c < coarse.size(); ++c) id.emplace(packKey(coarse[c]), static_cast<int>(c));
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(8 * n);
  for (int r = 0; r < n; ++r) {
    const Axis ax = axis(nodes[r][0], 0), ay = axis(nodes[r][1], 1), az = axis(nodes[r][2], 2);
    for (int k = 0; k < az.count; ++k)
      for (int j = 0; j < ay.count; ++j)
        for (int i = 0; i < ax.count; ++i)
          triplets.emplace_back(r, id.at(packKey(Eigen::Vector3i(ax.parent[i], ay.parent[j], az.parent[k]))),
                                ax.weight[i] * ay.weight[j] * az.weight[k]);
  }
  SparseMatrix P(n, static_cast<int>(coarse.size()));
  P.setFromTriplets(triplets.begin(), triplets.end());
  P.makeCompressed();
  return P;
}

MultigridPreconditioner::MultigridPreconditioner(const std::vector<Eigen::Vector3i>& nodeCoordinates,
                                                 const DofMask& fixed, const MultigridOptions& options)
    : options_(options), fixed_(fixed) {
  const int dofs = 3 * static_cast<int>(nodeCoordinates.size());
  if (static_cast<int>(fixed_.size()) != dofs)
    throw std::invalid_argument("MultigridPreconditioner: dof mask size differs from 3 x node count");
  if (options_.smootherDegree < 1) throw std::invalid_argument("MultigridPreconditioner: smootherDegree < 1");
  std::vector<Eigen::Vector3i> coords = nodeCoordinates;
  levels_.push_back(std::make_unique<Level>());
  levels_.back()->dofs = dofs;
  while (levels_.back()->dofs > options_.coarsestMaxDofs && static_cast<int>(levels_.size()) < options_.maxLevels) {
    std::vector<Eigen::Vector3i> coarse;
    const SparseMatrix Pn = trilinearProlongation(coords, coarse);
    if (10 * coarse.size() > 9 * coords.size()) break;  // not coarsening any more
    Level& fine = *levels_.back();
    fine.P = expandToDofs(Pn, levels_.size() == 1 ? &fixed_ : nullptr);
    fine.Pt = fine.P.transpose();
    fine.nodalP = Pn;
    levels_.push_back(std::make_unique<Level>());
    levels_.back()->dofs = 3 * static_cast<int>(coarse.size());
    coords = std::move(coarse);
  }
}

MultigridPreconditioner::~MultigridPreconditioner() = default;

int MultigridPreconditioner::levelDofs(int level) const { return levels_.at(level)->dofs; }

void MultigridPreconditioner::blockDiagonal(Level& level) const {
  const SparseMatrix& A = *level.A;
  const int nodes = level.dofs / 3;
  level.dinv.resize(nodes);
  const int* outer = A.outerIndexPtr();
  const int* inner = A.innerIndexPtr();
  const double* values = A.valuePtr();
  for (int i = 0; i < nodes; ++i) {
    Mat3 D = Mat3::Zero();
    for (int k = 0; k < 3; ++k) {
      const int col = 3 * i + k;
      const int* begin = inner + outer[col];
      const int* end = inner + outer[col + 1];
      const int* it = std::lower_bound(begin, end, 3 * i);
      for (; it != end && *it < 3 * i + 3; ++it) D(*it - 3 * i, k) = values[it - inner];
    }
    Mat3 inv = D.inverse();
    if (!inv.allFinite()) {  // not expected for an SPD matrix: scalar Jacobi fallback
      inv.setZero();
      for (int k = 0; k < 3; ++k) inv(k, k) = D(k, k) > 0.0 ? 1.0 / D(k, k) : 1.0;
    }
    level.dinv[i] = inv;
  }
}

void MultigridPreconditioner::estimateBounds(Level& level) const {
  // Power iteration on D^-1 A, from a fixed start vector (deterministic) the first time,
  // afterwards from the last estimate's vector (the matrices change little between
  // estimates, so fewer iterations reach the same accuracy).
  VecX& v = level.eigenvector;
  int iterations = options_.warmPowerIterations;
  if (v.size() != level.dofs || !v.allFinite() || !(v.norm() > 0.0)) {
    v.resize(level.dofs);
    for (int i = 0; i < level.dofs; ++i) v[i] = std::sin(1.0 + 0.7 * i) + 0.5;
    v.normalize();
    iterations = options_.powerIterations;
  }
  VecX Av, w;
  double estimate = 1.0;
  for (int it = 0; it < iterations; ++it) {
    level.product.apply(v, Av);
    applyBlocks(level.dinv, Av, w);
    const double norm = w.norm();
    if (!(norm > 0.0) || !std::isfinite(norm)) {
      v.resize(0);  // a cold start next time
      break;
    }
    estimate = norm;  // ||D^-1 A v|| with ||v|| = 1
    v = w / norm;
  }
  level.upper = options_.eigenvalueSafety * estimate;
  level.lower = options_.smootherLowerRatio * level.upper;
}

bool MultigridPreconditioner::factorizeCoarsest(const SparseMatrix& A) {
  if (coarsestRows_ != A.rows() || coarsestNonZeros_ != A.nonZeros()) {
    coarsest_.analyzePattern(A);
    coarsestRows_ = A.rows();
    coarsestNonZeros_ = A.nonZeros();
  }
  coarsest_.factorize(A);
  return coarsest_.info() == Eigen::Success;
}

bool MultigridPreconditioner::updateCorrection(const SparseMatrix& correction, bool applyToLevels) {
  SparseMatrix projected = correction;
  for (size_t l = 1; l < levels_.size(); ++l) {
    const Level& fine = *levels_[l - 1];
    Level& level = *levels_[l];
    projected = galerkin(fine.Pt, projected, fine.P);
    if (applyToLevels) {
      if (level.correction.rows() == level.dofs && !addInPattern(level.owned, level.correction, -1.0)) return false;
      if (!addInPattern(level.owned, projected, 1.0)) return false;
    }
    level.correction = projected;
  }
  return true;
}

bool MultigridPreconditioner::rebuild(const SparseMatrix& A, const SparseMatrix* correction) {
  if (A.rows() != levels_[0]->dofs || A.cols() != A.rows())
    throw std::invalid_argument("MultigridPreconditioner::rebuild: matrix size differs from the node count");
  levels_[0]->A = &A;
  fineNonZeros_ = A.nonZeros();
  // Whether this level's matrix has the structure of the last rebuild (then its product
  // only takes the new values): level 0 when its plan matches A, a coarse level when the
  // plan above it did not change.
  bool samePattern = levels_.size() > 1 && !levels_[0]->plan.empty() && levels_[0]->plan.matches(A);
  for (size_t l = 0; l < levels_.size(); ++l) {
    Level& level = *levels_[l];
    if (l > 0) {
      Level& fine = *levels_[l - 1];
      if (GalerkinPlan::supports(*fine.A)) {
        // The plan is built once per structure of the fine matrix.
        const bool keep = !fine.plan.empty() && (l == 1 ? samePattern : fine.plan.matches(*fine.A));
        if (!keep) fine.plan = GalerkinPlan(*fine.A, fine.nodalP, l == 1 ? &fixed_ : nullptr);
        fine.plan.compute(*fine.A, level.owned, options_.threads);
        samePattern = keep;
      } else {
        level.owned = galerkin(fine.Pt, *fine.A, fine.P);
        samePattern = false;
      }
      // Coarse dofs without a free fine dof: identity rows.
      level.owned.makeCompressed();
      std::vector<int> missing;  // no stored diagonal entry
      for (int c = 0; c < level.owned.outerSize(); ++c) {
        const int* begin = level.owned.innerIndexPtr() + level.owned.outerIndexPtr()[c];
        const int* end = level.owned.innerIndexPtr() + level.owned.outerIndexPtr()[c + 1];
        const int* at = std::lower_bound(begin, end, c);
        if (at != end && *at == c) {
          double& diagonal = level.owned.valuePtr()[at - level.owned.innerIndexPtr()];
          if (diagonal == 0.0) diagonal = 1.0;
        } else {
          missing.push_back(c);
        }
      }
      for (int c : missing) level.owned.coeffRef(c, c) = 1.0;
      samePattern = samePattern && missing.empty();
      level.owned.makeCompressed();
      level.A = &level.owned;
    }
    if (samePattern && level.productBuilt) level.product.setValues(*level.A);
    else level.product = SymmetricProduct(*level.A, options_.threads);
    level.productBuilt = true;
    if (l + 1 < levels_.size()) {
      blockDiagonal(level);
      estimateBounds(level);
    }
  }
  for (auto& level : levels_) level->correction = SparseMatrix();
  if (correction) updateCorrection(*correction, false);  // already inside the products
  built_ = factorizeCoarsest(*levels_.back()->A);
  ++rebuilds_;
  return built_;
}

bool MultigridPreconditioner::setFineMatrix(const SparseMatrix& A, const SparseMatrix* correction) {
  Level& fine = *levels_[0];
  if (!built_ || A.rows() != fine.dofs || A.nonZeros() != fineNonZeros_)
    throw std::logic_error("MultigridPreconditioner::setFineMatrix: needs a rebuild() with this pattern first");
  fine.A = &A;
  fine.product.setValues(A);
  if (levels_.size() > 1) blockDiagonal(fine);
  // A single level keeps the factor of the rebuild() matrix: PCG with a stale factor.
  if (!correction || levels_.size() == 1) return true;
  bool applied = false;  // a correction is in the coarse levels
  for (size_t l = 1; l < levels_.size(); ++l) applied = applied || levels_[l]->correction.nonZeros() > 0;
  if (!applied && correction->nonZeros() == 0) return true;  // none before, none now: nothing to swap
  if (!updateCorrection(*correction, true)) return rebuild(A, correction);
  for (size_t l = 1; l < levels_.size(); ++l) {
    Level& level = *levels_[l];
    level.product.setValues(level.owned);
    if (l + 1 < levels_.size()) {
      // The projected springs are not diagonally dominant: D^-1 A's largest eigenvalue
      // moves, and the Chebyshev interval must follow it.
      blockDiagonal(level);
      estimateBounds(level);
    }
  }
  built_ = factorizeCoarsest(*levels_.back()->A);
  return built_;
}

void MultigridPreconditioner::multiply(const VecX& x, VecX& y) const {
  const Level& fine = *levels_[0];
  fine.product.apply(x, y);
}

void MultigridPreconditioner::smooth(const Level& L, const VecX& b, VecX& x, bool zeroGuess) const {
  // Chebyshev iteration on D^-1 A x = D^-1 b over [lower, upper] (Saad, Alg. 12.1).
  const double theta = 0.5 * (L.upper + L.lower), delta = 0.5 * (L.upper - L.lower);
  const double sigma = theta / delta;
  double rho = 1.0 / sigma;
  if (zeroGuess) {
    L.r = b;
  } else {
    L.product.apply(x, L.t);
    L.r = b - L.t;
  }
  applyBlocks(L.dinv, L.r, L.d);
  L.d /= theta;
  if (zeroGuess) x = L.d;
  else x += L.d;
  for (int k = 1; k < options_.smootherDegree; ++k) {
    L.product.apply(L.d, L.t);
    L.r -= L.t;
    const double rhoNew = 1.0 / (2.0 * sigma - rho);
    applyBlocks(L.dinv, L.r, L.t);
    L.d = (rhoNew * rho) * L.d + (2.0 * rhoNew / delta) * L.t;
    x += L.d;
    rho = rhoNew;
  }
}

void MultigridPreconditioner::cycle(int l, const VecX& b, VecX& x) const {
  if (l + 1 == static_cast<int>(levels_.size())) {
    x = coarsest_.solve(b);
    return;
  }
  const Level& L = *levels_[l];
  smooth(L, b, x, true);
  L.product.apply(x, L.t);
  L.r = b - L.t;
  L.bc.noalias() = L.Pt * L.r;
  cycle(l + 1, L.bc, L.xc);
  x.noalias() += L.P * L.xc;
  smooth(L, b, x, false);
}

void MultigridPreconditioner::apply(const VecX& r, VecX& z) const {
  if (!built_) throw std::logic_error("MultigridPreconditioner::apply called before a successful rebuild()");
  cycle(0, r, z);
}

PcgResult preconditionedConjugateGradient(const MultigridPreconditioner& M, const VecX& b, VecX& x,
                                          double tolerance, int maxIterations) {
  return conjugateGradient([&](const VecX& p, VecX& Ap) { M.multiply(p, Ap); },
                           [&](const VecX& r, VecX& z) { M.apply(r, z); }, b, x, tolerance, maxIterations);
}

}  // namespace softfit

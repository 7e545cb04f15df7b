#pragma once
// Eigenvalue filtering of symmetric (element) Hessians for projected Newton (Chen et al.
// 2024): H = Q diag(l) Q^T -> Q diag(filter(l)) Q^T, via SelfAdjointEigenSolver (not an
// SVD, which would flip the sign of negative modes' vectors instead of the values).
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "forward/types.h"

namespace softfit {

enum class EigenvalueFilter {
  None,   // H unchanged (no eigendecomposition)
  Clamp,  // l -> max(l, eps)   (rigid zero modes become eps)
  Abs,    // l -> |l|           (pure absolute value: exact zeros stay 0; eps unused)
  // Trust-region eigenvalue filtering (Chen et al., SIGGRAPH Asia 2024): the Newton
  // solver picks abs or clamp per iteration (see HessianKind). Not an element filter:
  // resolve it with elementFilter() before projecting.
  Adaptive,
  // Exact Hessian first (Newton's quadratic convergence): the Newton solver uses the
  // unfiltered Hessian whenever its Cholesky factorization succeeds (it is then positive
  // definite and gives a descent direction) and falls back to Clamp only when it fails or
  // its step finds no decrease. Chosen per iteration, like Adaptive.
  ExactFirst,
};

// What a Newton iteration asks its objective's Hessian to be.
enum class HessianKind {
  Exact,     // no filtering
  Filtered,  // the configured filter (Adaptive: abs)
  // The configured filter after a full step whose quadratic model predicted the actual
  // decrease (trust-region ratio near 1; Adaptive: clamp, which keeps Newton's fast
  // local convergence where abs, flipping the remaining negative modes, slows it).
  FilteredModelTrusted,
};

// The per-element filter for a configured filter and a requested Hessian kind.
EigenvalueFilter elementFilter(EigenvalueFilter configured, HessianKind kind);

// "none", "clamp", "abs", "adaptive", "exact_first"; throws InputError naming `field` otherwise.
EigenvalueFilter parseEigenvalueFilter(const std::string& name, const std::string& field);
std::string eigenvalueFilterName(EigenvalueFilter filter);

// Filters H in place. Only the lower triangle of H is read; when no eigenvalue needs to
// change (Clamp: all l >= eps, Abs: all l >= 0) H is left bit-for-bit untouched,
// otherwise it is overwritten by the (exactly symmetric) reconstruction.
// Fixed-size matrices (e.g. 12x12 tet Hessians) are filtered without heap allocation.
// Adaptive and ExactFirst throw std::invalid_argument (resolve them with elementFilter()).
template <int N>
void projectToPsd(Eigen::Matrix<double, N, N>& H, EigenvalueFilter filter, double eps) {
  if (filter == EigenvalueFilter::None) return;
  if (filter == EigenvalueFilter::Adaptive || filter == EigenvalueFilter::ExactFirst)
    throw std::invalid_argument("projectToPsd: 'adaptive' and 'exact_first' are chosen per Newton iteration, not per element");
  using MatrixN = Eigen::Matrix<double, N, N>;
  if (filter == EigenvalueFilter::Abs || eps <= 0.0) {
    // Cheap inertia test first (Sylvester: the signs of the pivoted LDL^T diagonal are
    // the signs of the eigenvalues). Most elements of a moderately deformed mesh are
    // already PSD (up to round-off in their rigid null space): skip the eigensolver.
    const Eigen::LDLT<MatrixN> ldlt(H);
    const auto d = ldlt.vectorD();
    if (ldlt.info() == Eigen::Success && d.size() > 0 && (d.array() >= -1e-10 * d.cwiseAbs().maxCoeff()).all()) return;
  }
  const Eigen::SelfAdjointEigenSolver<MatrixN> eig(H, Eigen::ComputeEigenvectors);
  auto values = eig.eigenvalues();  // ascending
  if (values.size() == 0) return;
  const double threshold = filter == EigenvalueFilter::Clamp ? eps : 0.0;
  if (values(0) >= threshold) return;
  for (Eigen::Index i = 0; i < values.size(); ++i)
    values(i) = filter == EigenvalueFilter::Clamp ? std::max(values(i), eps) : std::abs(values(i));
  const MatrixN& Q = eig.eigenvectors();
  H.noalias() = (Q * values.asDiagonal()).lazyProduct(Q.transpose());
  // Remove round-off asymmetry so downstream symmetric solvers see the same matrix.
  H = (0.5 * (H + H.transpose())).eval();
}

// Same, for any dense column-major block (dynamic size: allocates).
void projectToPsd(Eigen::Ref<Eigen::MatrixXd> H, EigenvalueFilter filter, double eps);

}  // namespace softfit

#pragma once
// Eigenvalue filtering of symmetric (element) Hessians for projected Newton (Chen et al.
// 2024): H = Q diag(l) Q^T -> Q diag(filter(l)) Q^T, via SelfAdjointEigenSolver (not an
// SVD, which would flip the sign of negative modes' vectors instead of the values).
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <string>

#include "forward/types.h"

namespace softfit {

enum class EigenvalueFilter {
  None,   // H unchanged (no eigendecomposition)
  Clamp,  // l -> max(l, eps)   (rigid zero modes become eps)
  Abs,    // l -> |l|           (pure absolute value: exact zeros stay 0; eps unused)
};

// "none", "clamp", "abs"; throws InputError naming `field` otherwise.
EigenvalueFilter parseEigenvalueFilter(const std::string& name, const std::string& field);
std::string eigenvalueFilterName(EigenvalueFilter filter);

// Filters H in place. Only the lower triangle of H is read; when no eigenvalue needs to
// change (Clamp: all l >= eps, Abs: all l >= 0) H is left bit-for-bit untouched,
// otherwise it is overwritten by the (exactly symmetric) reconstruction.
// Fixed-size matrices (e.g. 12x12 tet Hessians) are filtered without heap allocation.
template <int N>
void projectToPsd(Eigen::Matrix<double, N, N>& H, EigenvalueFilter filter, double eps) {
  if (filter == EigenvalueFilter::None) return;
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

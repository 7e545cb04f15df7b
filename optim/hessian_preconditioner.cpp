#include "optim/hessian_preconditioner.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>

#include "forward/errors.h"

namespace softfit {

bool finiteDifferenceHessian(const GradientAt& gradientAt, const VecX& q0, const VecX& g0, double step, MatX& H) {
  const int n = static_cast<int>(q0.size());
  H.resize(n, n);
  for (int i = 0; i < n; ++i) {
    VecX g(n);
    double h = step;
    VecX q = q0;
    q[i] += h;
    if (!gradientAt(q, g) || !g.allFinite()) {
      h = -step;
      q[i] = q0[i] + h;
      if (!gradientAt(q, g) || !g.allFinite()) return false;
    }
    H.col(i) = (g - g0) / h;
  }
  H = (0.5 * (H + H.transpose())).eval();
  return true;
}

bool gaussNewtonHessian(const ResidualFunction& residuals, const VecX& q0, double step, MatX& H, int& runs) {
  const auto evaluate = [&](const VecX& q, VecX& r) {
    ++runs;
    try {
      r = residuals(q);
      return r.allFinite();
    } catch (const SolveError&) {
      return false;
    }
  };
  const int n = static_cast<int>(q0.size());
  VecX r0;
  if (!evaluate(q0, r0)) return false;
  MatX J(r0.size(), n);
  for (int i = 0; i < n; ++i) {
    VecX r;
    double h = step;
    VecX q = q0;
    q[i] += h;
    if (!evaluate(q, r) || r.size() != r0.size()) {
      h = -step;
      q[i] = q0[i] + h;
      if (!evaluate(q, r) || r.size() != r0.size()) return false;
    }
    J.col(i) = (r - r0) / h;
  }
  H = J.transpose() * J;
  return true;
}

LinearPreconditioner hessianPreconditioner(const MatX& H, const VecX& q0, double floor) {
  if (!H.allFinite() || H.rows() != H.cols() || H.rows() != q0.size())
    throw std::invalid_argument("hessianPreconditioner: the Hessian is not a finite square matrix of the parameters' size");
  const Eigen::SelfAdjointEigenSolver<MatX> eigen(H);
  const VecX magnitude = eigen.eigenvalues().cwiseAbs();
  const double largest = magnitude.size() ? magnitude.maxCoeff() : 0.0;
  if (!(largest > 0.0)) throw std::invalid_argument("hessianPreconditioner: the Hessian is zero");
  const VecX mu = magnitude.cwiseMax(floor * largest);
  LinearPreconditioner p;
  p.origin = q0;
  p.transform = eigen.eigenvectors() * mu.cwiseInverse().cwiseSqrt().asDiagonal();
  p.inverse = mu.cwiseSqrt().asDiagonal() * eigen.eigenvectors().transpose();
  return p;
}

}  // namespace softfit

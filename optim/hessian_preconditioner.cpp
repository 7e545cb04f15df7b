#include "optim/hessian_preconditioner.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "forward/errors.h"

namespace softfit {

namespace {

// J column i = (f(q0 + h e_i) - f0) / h, with -h where q0 + h e_i cannot be evaluated
// (`at` returns false, or its value is not finite or not f0's length). False when both
// sides of a column fail.
bool forwardDifferenceJacobian(const std::function<bool(const VecX& q, VecX& value)>& at, const VecX& q0,
                               const VecX& f0, double step, MatX& J) {
  const auto evaluated = [&](const VecX& q, VecX& value) {
    return at(q, value) && value.size() == f0.size() && value.allFinite();
  };
  const int n = static_cast<int>(q0.size());
  J.resize(f0.size(), n);
  for (int i = 0; i < n; ++i) {
    VecX value(f0.size());
    double h = step;
    VecX q = q0;
    q[i] += h;
    if (!evaluated(q, value)) {
      h = -step;
      q[i] = q0[i] + h;
      if (!evaluated(q, value)) return false;
    }
    J.col(i) = (value - f0) / h;
  }
  return true;
}

}  // namespace

bool finiteDifferenceHessian(const GradientAt& gradientAt, const VecX& q0, const VecX& g0, double step, MatX& H) {
  if (!forwardDifferenceJacobian(gradientAt, q0, g0, step, H)) return false;
  H = (0.5 * (H + H.transpose())).eval();
  return true;
}

bool residualJacobian(const ResidualFunction& residuals, const VecX& q0, double step, VecX& r0, MatX& J, int& runs) {
  const auto evaluate = [&](const VecX& q, VecX& r) {
    ++runs;
    try {
      r = residuals(q);
      return r.allFinite();
    } catch (const SolveError&) {
      return false;
    }
  };
  return evaluate(q0, r0) && forwardDifferenceJacobian(evaluate, q0, r0, step, J);
}

bool gaussNewtonHessian(const ResidualFunction& residuals, const VecX& q0, double step, MatX& H, int& runs) {
  VecX r0;
  MatX J;
  if (!residualJacobian(residuals, q0, step, r0, J, runs)) return false;
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

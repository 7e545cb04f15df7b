#include "optim/fit_uncertainty.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>
#include <limits>

#include "optim/hessian_preconditioner.h"

namespace softfit {

FitUncertainty fitUncertainty(FitProblem& problem, const VecX& q, double noiseSigma, double step) {
  FitUncertainty u;
  u.noiseSigma = noiseSigma > 0.0 ? noiseSigma : 0.0;
  const int n = static_cast<int>(q.size());
  if (!problem.hasResiduals()) {
    u.unavailable = "the point cost has no least-squares form (only the plain closest-point cost and displacements do)";
    return u;
  }
  VecX r;
  MatX J;
  if (!residualJacobian(problem.residualFunction(), q, step, r, J, u.forwardRuns)) {
    u.unavailable = "a forward run near the end point failed";
    return u;
  }
  u.observations = static_cast<int>(r.size());
  if (u.observations <= n) {
    u.unavailable = std::to_string(u.observations) + " observations for " + std::to_string(n) + " parameters";
    return u;
  }
  // The scales c_i (1 where the loss gives none), the errors e_i = r_i / c_i.
  std::vector<double> scales;
  std::vector<Eigen::Index> frameEnds;  // residuals [frameEnds[f-1], frameEnds[f]) belong to frame f
  bool scaled = true;
  const FitSetup& setup = problem.setup();
  for (int k = 0; k <= setup.trajectory.steps && scaled; ++k) {
    const std::size_t before = scales.size();
    scaled = setup.loss->appendResidualScales(k, scales);
    if (scales.size() > before) frameEnds.push_back(static_cast<Eigen::Index>(scales.size()));
  }
  VecX c = VecX::Ones(r.size());
  if (scaled && static_cast<Eigen::Index>(scales.size()) == r.size())
    c = Eigen::Map<const VecX>(scales.data(), r.size());
  double e2 = 0.0;
  int counted = 0;
  for (Eigen::Index i = 0; i < r.size(); ++i)
    if (c[i] > 0.0) {
      e2 += std::pow(r[i] / c[i], 2);
      ++counted;
    }
  u.residualRms = counted > n ? std::sqrt(e2 / (counted - n)) : 0.0;
  u.sigma = std::max(u.noiseSigma, u.residualRms);

  const MatX a = J.transpose() * J;
  MatX b = MatX::Zero(n, n);
  for (Eigen::Index i = 0; i < r.size(); ++i) b.noalias() += (c[i] * c[i]) * J.row(i).transpose() * J.row(i);
  b *= u.sigma * u.sigma;
  // A^-1 on the determined directions; parameters with a share in the others: infinite.
  const Eigen::SelfAdjointEigenSolver<MatX> eigen(a);
  const VecX lambda = eigen.eigenvalues();
  const double largest = lambda.size() ? lambda.cwiseAbs().maxCoeff() : 0.0;
  VecX inverse = VecX::Zero(n);
  std::vector<bool> undetermined(n, false);
  for (int k = 0; k < n; ++k) {
    if (lambda[k] > 1e-12 * largest) {
      inverse[k] = 1.0 / lambda[k];
    } else {
      for (int i = 0; i < n; ++i)
        if (std::abs(eigen.eigenvectors()(i, k)) > 1e-6) undetermined[i] = true;
    }
  }
  const MatX aInverse = eigen.eigenvectors() * inverse.asDiagonal() * eigen.eigenvectors().transpose();
  MatX covarianceQ = aInverse * b * aInverse;
  // Errors that are not independent (a shape or model error shared by a frame's points,
  // noise correlated between neighbouring pixels): the frame-clustered sandwich
  // B_f = f / (f - 1) sum_f g_f g_f^T, g_f = J_f^T r_f (Liang and Zeger 1986), which needs
  // no sigma. Each parameter's variance is the larger of the two estimates.
  u.frames = static_cast<int>(frameEnds.size());
  if (scaled && frameEnds.size() >= static_cast<std::size_t>(kClusterFramesPerParameter * n) &&
      frameEnds.back() == r.size()) {
    MatX clustered = MatX::Zero(n, n);
    Eigen::Index begin = 0;
    for (Eigen::Index end : frameEnds) {
      const VecX g = J.middleRows(begin, end - begin).transpose() * r.segment(begin, end - begin);
      clustered.noalias() += g * g.transpose();
      begin = end;
    }
    const double f = static_cast<double>(frameEnds.size());
    clustered *= f / (f - 1.0);
    const MatX clusteredQ = aInverse * clustered * aInverse;
    u.clustered = true;
    for (int i = 0; i < n; ++i)
      if (clusteredQ(i, i) > covarianceQ(i, i)) u.clusterDominated = true;
    if (u.clusterDominated) {
      // The clustered covariance, with each variance at least the noise one.
      const VecX noiseVariance = covarianceQ.diagonal();
      covarianceQ = clusteredQ;
      for (int i = 0; i < n; ++i) {
        if (!(noiseVariance[i] > covarianceQ(i, i))) continue;
        if (covarianceQ(i, i) > 0.0) {
          const double grow = std::sqrt(noiseVariance[i] / covarianceQ(i, i));
          covarianceQ.row(i) *= grow;
          covarianceQ.col(i) *= grow;
        } else {  // no clustered variance at all: the noise one, uncorrelated
          covarianceQ.row(i).setZero();
          covarianceQ.col(i).setZero();
          covarianceQ(i, i) = noiseVariance[i];
        }
      }
    }
  }
  VecX d(n);
  for (int i = 0; i < n; ++i) d[i] = problem.transforms().transforms[i].derivative(q[i]);
  const MatX covariance = d.asDiagonal() * covarianceQ * d.asDiagonal();

  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  u.standardError = VecX(n);
  for (int i = 0; i < n; ++i) u.standardError[i] = undetermined[i] ? inf : std::sqrt(std::max(0.0, covariance(i, i)));
  u.correlation = MatX(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double si = std::sqrt(covariance(i, i)), sj = std::sqrt(covariance(j, j));
      if (undetermined[i] || undetermined[j])
        u.correlation(i, j) = nan;
      else if (i == j)
        u.correlation(i, j) = 1.0;
      else
        u.correlation(i, j) = si > 0.0 && sj > 0.0 ? covariance(i, j) / (si * sj) : nan;
    }
  u.available = true;
  return u;
}

std::vector<std::string> uncertaintyWarnings(const std::vector<std::string>& names, const VecX& values,
                                             const TransformSet& transforms, const FitUncertainty& uncertainty) {
  std::vector<std::string> warnings;
  if (!uncertainty.available) return warnings;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const double v = values[static_cast<Eigen::Index>(i)], se = uncertainty.standardError[static_cast<Eigen::Index>(i)];
    const bool positive = i < transforms.transforms.size() &&
                          transforms.transforms[i].kind != ParameterTransform::Kind::Identity;
    if (!(std::isinf(se) || (positive && se > kMaxRelativeStandardError * std::abs(v)))) continue;
    char text[320];
    if (std::isinf(se))
      std::snprintf(text, sizeof text,
                    "%s = %.4g is not determined by the observations (its standard error is unbounded): the capture "
                    "does not constrain it",
                    names[i].c_str(), v);
    else
      std::snprintf(text, sizeof text,
                    "%s = %.4g has a standard error of %.4g (%.0f%% of its value): the capture does not identify it",
                    names[i].c_str(), v, se, 100.0 * se / std::max(std::abs(v), 1e-300));
    warnings.push_back(text);
  }
  return warnings;
}

}  // namespace softfit

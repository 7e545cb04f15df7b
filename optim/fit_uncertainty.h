#pragma once
// How sure a least-squares fit is of its parameters: standard errors and correlations
// from the Gauss-Newton approximation at the end point.
//
// The fit minimizes 1/2 |r(q)|^2 with r_i = c_i e_i: e_i an observation's own error (a
// point's signed distance to the surface, in metres), c_i the square root of its weight
// in the loss (TrajectoryLoss::appendResidualScales; c_i = 1 when the loss does not
// say). With J = dr/dq at the end point (forward differences in the internal
// coordinates: n + 1 forward runs, no adjoint) and independent errors of standard
// deviation sigma, the estimate's covariance is the sandwich
//   C_q = A^-1 B A^-1,   A = J^T J,   B = sigma^2 sum_i c_i^2 J_i^T J_i
// (sigma^2 A^-1 when every c_i is the same), and in physical units C_p = D C_q D with
// D = dp/dq (the transforms' derivatives). sigma is the larger of the observations'
// noise (observationNoiseSigma: the fit's noise sigma, or reconstruct's median per-point
// sigma) and the RMS error left at the end, sqrt(sum e_i^2 / (N - n)): a fit whose
// model does not explain its data is not credited with the sensor's precision.
// Errors are seldom independent: a rest-shape or model error is shared by all points of
// a frame, and neighbouring pixels' noise is correlated. With at least
// kClusterFramesPerParameter x n observed frames the frame-clustered sandwich
// (B = f/(f-1) sum_f g_f g_f^T, g_f = J_f^T r_f: Liang and Zeger 1986, no sigma needed)
// is taken too, and each parameter's variance is the larger of the two.
// Directions of A below 1e-12 of its largest eigenvalue are not determined by the data:
// a parameter with a share in one gets an infinite standard error.
#include <string>
#include <vector>

#include "forward/types.h"
#include "optim/fit_problem.h"

namespace softfit {

struct FitUncertainty {
  bool available = false;
  std::string unavailable;   // why not, when not available
  VecX standardError;        // per parameter, physical units (+inf: not determined)
  MatX correlation;          // n x n (NaN rows and columns for undetermined parameters)
  double sigma = 0.0;        // the error standard deviation used (m)
  double noiseSigma = 0.0;   // the observations' noise given (0: unknown)
  double residualRms = 0.0;  // sqrt(sum e_i^2 / (N - n)) at the end point
  int observations = 0;      // N
  int frames = 0;            // observed frames (clusters)
  bool clustered = false;    // the frame-clustered covariance was taken
  bool clusterDominated = false;  // and it was larger than the independent-noise one
  int forwardRuns = 0;
};

constexpr int kClusterFramesPerParameter = 4;

// The uncertainty of the fit `problem` ending at internal point q. Not available (with
// the reason) for a loss without a least-squares form (the grid SDF, mixture and pixel
// costs, Huber, the noise correction), for as many observations as parameters or fewer,
// or when a forward run fails. `step`: the difference step in internal coordinates.
FitUncertainty fitUncertainty(FitProblem& problem, const VecX& q, double noiseSigma, double step = 1e-3);

// A positive parameter (a log or logit transform: E, nu, density, damping) whose
// standard error exceeds this fraction of its value is not identifiable from the
// capture. Signed ones (velocities, the ground's offset and angles) may well be near 0:
// for them only an unbounded standard error warns.
constexpr double kMaxRelativeStandardError = 0.5;

// One warning per such parameter (names and physical values in the problem's order).
std::vector<std::string> uncertaintyWarnings(const std::vector<std::string>& names, const VecX& values,
                                             const TransformSet& transforms, const FitUncertainty& uncertainty);

}  // namespace softfit

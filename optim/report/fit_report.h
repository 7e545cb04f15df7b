#pragma once
// Files a fit leaves behind: the iteration history as CSV (physical parameter values),
// the result as JSON and the convergence plot as PNG.
#include <map>
#include <string>
#include <vector>

#include "optim/fit_uncertainty.h"
#include "optim/optimizer.h"
#include "optim/parameter_transform.h"

namespace softfit {

// A parametric-bootstrap bias correction applied after the fit (optim/bootstrap_bias.h).
struct FitBootstrapSummary {
  int steps = 0;         // 0 = none was applied
  int replicates = 0;    // noise draws per re-rendered point
  int refits = 1;        // synthetic captures fitted per step (their re-estimates averaged)
  double sigma = 0.0;    // noise of the re-rendered captures (m)
  VecX estimate;         // the plain fit (physical values), before the correction
  std::vector<VecX> points, reestimates;  // q_k and reestimate(q_k), physical values
};

struct FitSummary {
  std::vector<std::string> names;
  VecX start, result;             // physical values (after the bootstrap correction, if any)
  std::map<std::string, double> truth;  // known true values (synthetic data), optional
  OptimizationResult optimization;  // of the plain fit
  FitBootstrapSummary bootstrap;
  std::vector<std::string> warnings;  // fitWarnings (optim/fit_warnings.h), next to "converged"
  FitUncertainty uncertainty;         // standard errors and correlations at the end point
  double seconds = 0.0;
};

// Throws InputError naming the path when it cannot be written.
void writeFitHistoryCsv(const std::string& path, const std::vector<std::string>& names, const TransformSet& transforms,
                        const std::vector<IterationRecord>& history);
// A fit's path read back from its history.csv: per iteration the values of `names`
// (physical) and the cost. Throws InputError naming the file and the column or line
// for a missing file, a missing column or a malformed row.
struct FitHistoryTrack {
  std::vector<VecX> points;
  std::vector<double> costs;
};
FitHistoryTrack readFitHistoryCsv(const std::string& path, const std::vector<std::string>& names);

void writeFitResultJson(const std::string& path, const FitSummary& summary);
// "name: start -> result (truth, error %)" lines for the terminal, with the standard
// errors when known and the strongly correlated pairs (|correlation| > 0.9).
std::string formatFitSummary(const FitSummary& summary);

}  // namespace softfit

#pragma once
// Files a fit leaves behind: the iteration history as CSV (physical parameter values),
// the result as JSON and the convergence plot as PNG.
#include <map>
#include <string>
#include <vector>

#include "optim/optimizer.h"
#include "optim/parameter_transform.h"

namespace softfit {

struct FitSummary {
  std::vector<std::string> names;
  VecX start, result;             // physical values
  std::map<std::string, double> truth;  // known true values (synthetic data), optional
  OptimizationResult optimization;
  double seconds = 0.0;
};

// Throws InputError naming the path when it cannot be written.
void writeFitHistoryCsv(const std::string& path, const std::vector<std::string>& names, const TransformSet& transforms,
                        const std::vector<IterationRecord>& history);
void writeFitResultJson(const std::string& path, const FitSummary& summary);
// "name: start -> result (truth, error %)" lines for the terminal.
std::string formatFitSummary(const FitSummary& summary);

}  // namespace softfit

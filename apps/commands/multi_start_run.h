#pragma once
// A multi-start fit whose starts are spread over the processes of a WorkDistribution
// (one start per task). Every process gets every start's result and picks the same best
// (optim/fit_problem.h bestStartIndex), so the outcome is the same bits for 1, 2 or K
// processes. A start whose search hit a failed forward solve is reported; the others
// continue and the best is chosen among the starts without one. Each start begins from
// a copy of the problem as it was before the first (its parameter values, which the
// last bits of an evaluation depend on: optim/fit_problem.h), and it is left so
// afterwards, so a start's result is the same bits in whichever process, and after
// whichever starts, it runs.
#include <string>
#include <vector>

#include "apps/distribute/work_distribution.h"
#include "optim/fit_problem.h"

namespace softfit::apps {

struct MultiStartRun {
  std::vector<VecX> starts;                 // internal coordinates
  std::vector<OptimizationResult> results;  // per start
  int best = 0;
  const OptimizationResult& bestResult() const { return results[best]; }
};

// `onIteration(start, record)` is called for the iterations this process runs.
MultiStartRun runMultiStart(FitProblem& problem, const VecX& q0, const OptimizerOptions& optimizer,
                            const MultiStartOptions& multiStart, WorkDistribution& distribution,
                            const std::function<void(int start, const IterationRecord&)>& onIteration);

// One line per start ("start 2: cost ..., 17 iterations, converged") and the best.
std::string formatMultiStart(const MultiStartRun& run, const FitProblem& problem,
                             const std::vector<std::string>& names);

// starts.csv: start, cost, iterations, evaluations, converged, solve_failed, best, the
// start and result values (physical), stop_reason. InputError naming path on failure.
void writeMultiStartCsv(const std::string& path, const MultiStartRun& run, const FitProblem& problem,
                        const std::vector<std::string>& names);

// Bit-exact bytes of an optimization result (for WorkDistribution).
std::string encodeOptimizationResult(const OptimizationResult& result);
OptimizationResult decodeOptimizationResult(const std::string& bytes);

}  // namespace softfit::apps

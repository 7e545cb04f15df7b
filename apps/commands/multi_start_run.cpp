#include "apps/commands/multi_start_run.h"

#include <cstdio>
#include <fstream>

#include "apps/commands/fit_inputs.h"
#include "apps/distribute/result_bytes.h"
#include "forward/errors.h"

namespace softfit::apps {

std::string encodeOptimizationResult(const OptimizationResult& r) {
  ByteWriter w;
  w.add(r.point).add(r.cost).add(r.iterations).add(r.evaluations).add(r.residualEvaluations).add(r.converged);
  w.add(r.solveFailed).add(r.stopReason);
  w.add(static_cast<int>(r.history.size()));
  for (const IterationRecord& h : r.history)
    w.add(h.iteration).add(h.evaluations).add(h.cost).add(h.gradientNorm).add(h.point).add(h.seconds);
  return w.bytes();
}

OptimizationResult decodeOptimizationResult(const std::string& bytes) {
  ByteReader in(bytes);
  OptimizationResult r;
  r.point = in.vector();
  r.cost = in.real();
  r.iterations = static_cast<int>(in.integer());
  r.evaluations = static_cast<int>(in.integer());
  r.residualEvaluations = static_cast<int>(in.integer());
  r.converged = in.boolean();
  r.solveFailed = in.boolean();
  r.stopReason = in.text();
  const int n = static_cast<int>(in.integer());
  for (int k = 0; k < n; ++k) {
    IterationRecord h;
    h.iteration = static_cast<int>(in.integer());
    h.evaluations = static_cast<int>(in.integer());
    h.cost = in.real();
    h.gradientNorm = in.real();
    h.point = in.vector();
    h.seconds = in.real();
    r.history.push_back(std::move(h));
  }
  return r;
}

MultiStartRun runMultiStart(FitProblem& problem, const VecX& q0, const OptimizerOptions& optimizer,
                            const MultiStartOptions& multiStart, WorkDistribution& distribution,
                            const std::function<void(int start, const IterationRecord&)>& onIteration) {
  MultiStartRun run;
  run.starts = multiStartPoints(q0, multiStart);
  const FitProblem initial(problem);  // a copy: its parameter values and initial state
  const std::vector<TaskResult> results =
      distribution.runAll(static_cast<int>(run.starts.size()), [&](int s) {
        problem = initial;
        const ObjectiveFunction f = problem.objective();
        return encodeOptimizationResult(
            minimize(f, run.starts[s], optimizer, [&](const IterationRecord& r) { onIteration(s, r); }));
      });
  problem = initial;  // every process goes on from the same state
  for (const TaskResult& r : results) r.rethrow();  // the first error, the same on every process
  for (const TaskResult& r : results) run.results.push_back(decodeOptimizationResult(r.bytes));
  run.best = bestStartIndex(run.results);
  return run;
}

namespace {

std::string physical(const FitProblem& problem, const std::vector<std::string>& names, const VecX& q) {
  return formatPoint(names, problem.toPhysical(q));
}

}  // namespace

std::string formatMultiStart(const MultiStartRun& run, const FitProblem& problem,
                             const std::vector<std::string>& names) {
  std::string out;
  char buffer[256];
  int failed = 0;
  for (size_t s = 0; s < run.results.size(); ++s) {
    const OptimizationResult& r = run.results[s];
    failed += r.solveFailed;
    std::snprintf(buffer, sizeof(buffer), "  start %zu: cost %.6e after %d iterations (%d evaluations), ", s, r.cost,
                  r.iterations, r.evaluations);
    out += buffer + physical(problem, names, r.point) + ": " + r.stopReason +
           (r.solveFailed ? " [forward solve failed; the other starts continue]" : "") + "\n";
  }
  std::snprintf(buffer, sizeof(buffer), "  best of %zu starts: start %d%s\n", run.results.size(), run.best,
                failed ? (", " + std::to_string(failed) + " with a failed forward solve").c_str() : "");
  return out + buffer;
}

void writeMultiStartCsv(const std::string& path, const MultiStartRun& run, const FitProblem& problem,
                        const std::vector<std::string>& names) {
  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot write");
  out << "start,cost,iterations,evaluations,converged,solve_failed,best";
  for (const std::string& n : names) out << ",start_" << n;
  for (const std::string& n : names) out << "," << n;
  out << ",stop_reason\n";
  char buffer[64];
  for (size_t s = 0; s < run.results.size(); ++s) {
    const OptimizationResult& r = run.results[s];
    std::snprintf(buffer, sizeof(buffer), "%.17g", r.cost);
    out << s << "," << buffer << "," << r.iterations << "," << r.evaluations << "," << r.converged << ","
        << r.solveFailed << "," << (static_cast<int>(s) == run.best);
    for (const VecX* q : {&run.starts[s], &r.point}) {
      const VecX p = problem.toPhysical(*q);
      for (int i = 0; i < p.size(); ++i) {
        std::snprintf(buffer, sizeof(buffer), "%.17g", p[i]);
        out << "," << buffer;
      }
    }
    std::string reason = r.stopReason;
    for (char& c : reason)
      if (c == '"') c = '\'';
    out << ",\"" << reason << "\"\n";
  }
  if (!out) throw InputError(path + ": write failed");
}

}  // namespace softfit::apps

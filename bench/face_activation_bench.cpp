// Activation-only solve time of the face model (thesis/Dinev: 157 ms and 8.6 iterations on
// average for 7,046 vertices / 25,227 tets on a 6-core CPU; per-tet (Phace) activations
// 998 ms). Synthetic face (face/synthetic_face.h) at ~25k tets: 40 x 35 x 3 cells
// (5,904 nodes, 25,200 tets), targets from known activations and the true S; each
// benchmark iteration solves one unseen target from the rest expression (Gauss-Newton,
// ActivationFitOptions' default). Muscles: three iterations, one per target, with one
// FaceSolver, so the time is the mean over three expressions as the source's figure is
// (its one-time symbolic analysis is then shared, as in a session that solves many).
// MusclesFromNeutral: the same solves, each started from the neutral face's equilibrium.
// MusclesSession: as MusclesFromNeutral, with the all-at-once iteration's linearization at
// that start kept (StartLinearization) from an untimed fit beforehand, as a session that
// fits many expressions of one subject keeps it.
// Counters per solve: outer iterations, objective evaluations, Newton iterations, mean
// vertex error (mm).
//   build-*/bench/face_activation_bench [--benchmark_filter=Muscles]
#include <benchmark/benchmark.h>

#include <map>
#include <memory>

#include "face/activation_all_at_once.h"
#include "face/activation_fit.h"
#include "face/synthetic_face.h"

namespace {

using namespace softfit;
using namespace softfit::face;

const SyntheticFace& faceOfSize(int around, int up, int through) {
  static std::map<int, std::unique_ptr<SyntheticFace>> cache;
  const int key = around * 10000 + up * 100 + through;
  auto& f = cache[key];
  if (!f) {
    SyntheticFaceOptions o;
    o.cellsAround = around;
    o.cellsUp = up;
    o.cellsThrough = through;
    o.targetCount = 3;
    f = std::make_unique<SyntheticFace>(makeSyntheticFace(o));
  }
  return *f;
}

// fromNeutral: every solve starts Newton from the neutral face's equilibrium (the rest
// expression's, computed once before the timed solves, as a session that solves many
// expressions of one subject would keep it); otherwise from the rest shape.
// session: fromNeutral, and the start's linearization kept from an untimed fit before.
void runSolve(benchmark::State& state, ActivationModel kind, bool fromNeutral = false, bool session = false) {
  fromNeutral = fromNeutral || session;
  const SyntheticFace& f = faceOfSize(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)),
                                      static_cast<int>(state.range(2)));
  FaceSolver solver(f.model);
  ActivationFitOptions options;
  options.kind = kind;
  if (kind == ActivationModel::PerTet) options.regularization = Regularization{1e-6, 1e-5, 0};
  VecX neutral;
  if (fromNeutral) {
    const Expression rest = restExpression(f.model, ActivationModel::Muscles);
    solver.solve(f.trueGeometry.tetActivations(rest.activations), rest.jaw, neutral);
  }
  const Expression start = restExpression(f.model, kind);
  StartLinearization linearization;
  if (session) fitActivations(solver, f.trueGeometry, f.targets[0], start, options, &neutral, &linearization);
  double iterations = 0, evaluations = 0, newton = 0, error = 0, seconds = 0;
  int runs = 0, target = 0;
  for (auto _ : state) {
    const FaceTarget& t = f.targets[target++ % f.targets.size()];
    const ActivationFitResult r = fitActivations(solver, f.trueGeometry, t, start, options,
                                                 fromNeutral ? &neutral : nullptr, session ? &linearization : nullptr);
    iterations += r.iterations;
    evaluations += r.evaluations;
    newton += r.newtonIterations;
    error += 1e3 * r.meanError;
    seconds += r.seconds;
    ++runs;
  }
  state.counters["tets"] = f.model.tetCount();
  state.counters["nodes"] = f.model.nodeCount();
  state.counters["iterations"] = iterations / runs;
  state.counters["evaluations"] = evaluations / runs;
  state.counters["newton"] = newton / runs;
  state.counters["error_mm"] = error / runs;
  state.counters["ms_per_evaluation"] = 1e3 * seconds / evaluations;
}

void BM_FaceActivationSolveMuscles(benchmark::State& state) { runSolve(state, ActivationModel::Muscles); }
void BM_FaceActivationSolveMusclesFromNeutral(benchmark::State& state) {
  runSolve(state, ActivationModel::Muscles, true);
}
void BM_FaceActivationSolveMusclesSession(benchmark::State& state) {
  runSolve(state, ActivationModel::Muscles, true, true);
}
void BM_FaceActivationSolvePerTet(benchmark::State& state) { runSolve(state, ActivationModel::PerTet); }

BENCHMARK(BM_FaceActivationSolveMuscles)->Args({40, 35, 3})->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FaceActivationSolveMusclesFromNeutral)
    ->Args({40, 35, 3})
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FaceActivationSolveMusclesSession)
    ->Args({40, 35, 3})
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FaceActivationSolvePerTet)->Args({40, 35, 3})->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

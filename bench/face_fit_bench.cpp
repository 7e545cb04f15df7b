// Face inverse-model measurements that are too slow for unit tests (synthetic face,
// 10 x 8 x 2 cells = 960 tets, 7 muscles, 6 targets):
//  * BM_FaceGeometryFit: multi-target S fit (4 training targets, perturbed S0) and the
//    held-out error (2 unseen targets) of activation-only fits with S0 fixed vs the fitted
//    S; inverted tets counted on the held-out fits.
//  * BM_FaceArtifact: a 4 mm outward bump on 3 skin nodes; error on the bump region for
//    the reduced (muscle) model and the per-tet (Phace-style) baseline.
#include <benchmark/benchmark.h>

#include <algorithm>

#include "face/activation_fit.h"
#include "face/geometry_fit.h"
#include "face/synthetic_face.h"

namespace {

using namespace softfit;
using namespace softfit::face;

const SyntheticFace& face() {
  static const SyntheticFace f = [] {
    SyntheticFaceOptions o;
    o.cellsAround = 10;
    o.cellsUp = 8;
    o.cellsThrough = 2;
    o.targetCount = 6;
    return makeSyntheticFace(o);
  }();
  return f;
}

void BM_FaceGeometryFit(benchmark::State& state) {
  const SyntheticFace& f = face();
  const std::vector<FaceTarget> training(f.targets.begin(), f.targets.begin() + 4);
  for (auto _ : state) {
    GeometryFitOptions options;
    options.rounds = static_cast<int>(state.range(0));
    const GeometryFitResult fit = fitGeometry(f.model, f.model.geometry, training, options);
    FaceSolver solver(f.model);
    double before = 0, after = 0, truth = 0;
    int inverted = 0;
    for (int k = 4; k < 6; ++k) {
      const Expression start = restExpression(f.model, ActivationModel::Muscles);
      before += fitActivations(solver, f.model.geometry, f.targets[k], start, {}).meanError / 2;
      const ActivationFitResult r = fitActivations(solver, fit.geometry, f.targets[k], start, {});
      after += r.meanError / 2;
      inverted += invertedTetCount(f.model, r.positions);
      truth += fitActivations(solver, f.trueGeometry, f.targets[k], start, {}).meanError / 2;
    }
    state.counters["train_error_round0_mm"] = 1e3 * fit.history.front().meanError;
    state.counters["train_error_last_mm"] = 1e3 * fit.history.back().meanError;
    state.counters["heldout_S0_mm"] = 1e3 * before;
    state.counters["heldout_fitted_S_mm"] = 1e3 * after;
    state.counters["heldout_true_S_mm"] = 1e3 * truth;
    state.counters["heldout_inverted_tets"] = inverted;
    state.counters["S_distance_to_truth_before"] = (f.model.geometry.values() - f.trueGeometry.values()).norm();
    state.counters["S_distance_to_truth_after"] = (fit.geometry.values() - f.trueGeometry.values()).norm();
    state.counters["size_mm"] = 1e3 * f.model.size;
  }
}

void BM_FaceArtifact(benchmark::State& state) {
  const SyntheticFace& f = face();
  FaceTarget target = f.targets[0];
  // Bump: the skin node nearest to the left cheek and its closest neighbours move 4 mm outward.
  const std::vector<int> artifact = injectBumpArtifact(target, Vec3(0.06, -0.01, 0.075), 3, 0.004);
  auto artifactError = [&](const VecX& x) { return face::artifactError(target, artifact, x); };
  for (auto _ : state) {
    FaceSolver solver(f.model);
    const ActivationFitResult r =
        fitActivations(solver, f.trueGeometry, target, restExpression(f.model, ActivationModel::Muscles), {});
    ActivationFitOptions perTet;
    perTet.kind = ActivationModel::PerTet;
    perTet.regularization = Regularization{1e-8, 1e-7, 0};
    perTet.maxIterations = static_cast<int>(state.range(0));
    Expression start = r.expression;
    start.activations = f.trueGeometry.tetActivations(r.expression.activations);
    const ActivationFitResult b = fitActivations(solver, f.trueGeometry, target, start, perTet, &r.positions);
    state.counters["bump_error_reduced_mm"] = 1e3 * artifactError(r.positions);
    state.counters["bump_error_per_tet_mm"] = 1e3 * artifactError(b.positions);
    state.counters["mean_error_reduced_mm"] = 1e3 * r.meanError;
    state.counters["mean_error_per_tet_mm"] = 1e3 * b.meanError;
    state.counters["per_tet_iterations"] = b.iterations;
    state.counters["per_tet_seconds"] = b.seconds;
  }
}

BENCHMARK(BM_FaceGeometryFit)->Arg(3)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_FaceArtifact)->Arg(100)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();

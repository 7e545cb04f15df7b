#include "apps/commands/solvers_command.h"
#include "apps/commands/option_checks.h"

#include <cstdio>
#include <memory>
#include <sstream>

#include "forward/errors.h"
#include "apps/commands/solver_comparison.h"
#include "scene/scene_builder.h"
#include "scene/scene_loader.h"

namespace softfit::apps {

namespace {

struct SolversOptions {
  std::string scene;
  std::string solvers = "newton-clamp,newton-abs,newton-adaptive,lbfgs";
  int afterSteps = 0;
  int maxIterations = 500;
  double tolerance = 1e-5;
  int lbfgsWindow = 5;
};

// "newton-<filter>[-analytic]", "lbfgs", "pd".
SolverCase parseCase(const std::string& name, const SolversOptions& o) {
  const std::string field = "--solvers";
  SolverCase c;
  c.label = name;
  c.settings.maxIterations = o.maxIterations;
  c.settings.decrementTolerance = o.tolerance;
  c.settings.lbfgsWindow = o.lbfgsWindow;
  if (name.rfind("newton-", 0) == 0) {
    c.settings.type = StepSolverType::Newton;
    std::string filter = name.substr(7);
    const std::string analytic = "-analytic";
    if (filter.size() > analytic.size() && filter.compare(filter.size() - analytic.size(), analytic.size(), analytic) == 0) {
      filter.resize(filter.size() - analytic.size());
      c.settings.projection.eigensystem = ElementEigensystem::AnalyticStableNeoHookean;
    }
    c.settings.projection.filter = parseEigenvalueFilter(filter, field + " '" + name + "'");
    return c;
  }
  try {
    c.settings.type = parseStepSolverType(name, field);
  } catch (const InputError&) {
    throw InputError(field + " = '" + name +
                     "': unknown solver (valid: newton-<none|clamp|abs|adaptive>[-analytic], lbfgs, pd)");
  }
  return c;
}

std::vector<SolverCase> parseCases(const SolversOptions& o) {
  std::vector<SolverCase> cases;
  std::stringstream list(o.solvers);
  std::string name;
  while (std::getline(list, name, ','))
    if (!name.empty()) cases.push_back(parseCase(name, o));
  if (cases.empty()) throw InputError("--solvers: empty list");
  return cases;
}

void runSolvers(const SolversOptions& o) {
  const std::vector<SolverCase> cases = parseCases(o);
  if (o.tolerance < 0.0) throw InputError("--tolerance must be >= 0");
  SceneDescription description = loadScene(o.scene);
  BuiltScene scene = buildScene(description);
  PhysicalModel& model = *scene.model;
  const IntegratorType scheme = description.integrator.type;
  std::printf("softfit solvers: %s\n  %s, material %s, integrator %s, dt %g\n", o.scene.c_str(),
              scene.summary().c_str(), materialModelName(model.elastic().model()).c_str(),
              integratorTypeName(scheme).c_str(), description.dt);
  State current = scene.initial, previous;
  bool hasPrevious = false;
  if (o.afterSteps > 0) {
    auto integrator = makeIntegrator(description.integrator);
    for (int k = 0; k < o.afterSteps; ++k) {
      State next = integrator->step(model, current, hasPrevious ? &previous : nullptr, description.dt);
      previous = current;
      current = next;
      hasPrevious = true;
    }
  }
  const StepProblem problem =
      makeStepProblem(model, scheme, current, hasPrevious ? &previous : nullptr, description.dt);
  StepObjective objective(model, problem);
  const ReferenceSolution ref = solveReference(objective);
  std::printf("  step %d -> t = %g; reference: tight Newton, %d iterations, %.1f ms\n", o.afterSteps + 1,
              problem.time, ref.iterations, 1e3 * ref.seconds);
  std::printf("  stop: decrement -1/2 d.g <= %g x %.4g (a b^2 h^2 sum V (2 mu + lambda)), at most %d iterations\n\n",
              o.tolerance, decrementScale(model, problem), o.maxIterations);
  std::printf("| solver | iterations | factorizations | time ms | rel. error | |x - x*| / |x* - x_1| | converged |\n"
              "|---|---:|---:|---:|---:|---:|---|\n");
  int failed = 0;
  for (const SolverCaseResult& r : compareSolvers(model, problem, cases, ref)) {
    if (!r.failure.empty()) {
      ++failed;
      std::printf("| %s | failed: %s |\n", r.label.c_str(), r.failure.c_str());
      continue;
    }
    std::printf("| %s | %d | %d | %.1f | %.2e | %.2e | %s |\n", r.label.c_str(), r.solve.iterations,
                r.solve.factorizations, 1e3 * r.solve.seconds, r.relativeError, r.relativeDistance,
                r.solve.converged ? "yes" : "no");
  }
  std::printf("\nrel. error = (G(x_k) - G(x*)) / (G(x_1) - G(x*)), x_1 = initial guess, x* = reference.\n");
  if (failed == static_cast<int>(cases.size()))
    throw SolveError("--solvers: every requested solver failed (" + std::to_string(failed) + " of " +
                     std::to_string(cases.size()) + ", see the table)");
}

}  // namespace

void addSolversCommand(CLI::App& app) {
  auto o = std::make_shared<SolversOptions>();
  CLI::App* cmd =
      app.add_subcommand("solvers", "Compare step solvers (projected Newton, L-BFGS, projective dynamics) on one step");
  cmd->add_option("scene", o->scene, "Scene JSON file")->required();
  cmd->add_option("--solvers", o->solvers,
                  "Comma-separated: newton-none, newton-clamp, newton-abs, newton-adaptive (trust-region "
                  "abs/clamp switch, Chen et al. 2024), each with -analytic for the stable neo-Hookean "
                  "eigensystem, lbfgs, pd (arap, corotated)")
      ->capture_default_str();
  cmd->add_option("--after-steps", o->afterSteps, "Steps of the scene's integrator before the compared step")
      ->check(integerAtLeast(0))
      ->capture_default_str();
  cmd->add_option("--max-iterations", o->maxIterations, "Iteration budget per solver")
      ->check(integerAtLeast(1))
      ->capture_default_str();
  cmd->add_option("--tolerance", o->tolerance, "Relative decrement tolerance (0: run the whole budget)")
      ->check(numberAtLeast(0))
      ->capture_default_str();
  cmd->add_option("--lbfgs-window", o->lbfgsWindow, "L-BFGS history size")->check(integerAtLeast(1))->capture_default_str();
  cmd->callback([o] { runSolvers(*o); });
}

}  // namespace softfit::apps

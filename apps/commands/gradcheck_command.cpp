#include "apps/commands/gradcheck_command.h"
#include "apps/commands/option_checks.h"

#include <cstdio>
#include <memory>

#include "adjoint/scene_gradient_check.h"
#include "scene/scene_loader.h"

namespace softfit::apps {

namespace {

struct GradcheckOptions {
  std::string scene;
  std::string parameters = "E,nu,density,alpha1,alpha2,gravity";
  int steps = -1;
  double tolerance = 1e-6;
  std::string checkpointing = "all";
  int period = 10;
  int maxStates = 20;
};

int runGradcheck(const GradcheckOptions& options) {
  SceneDescription description = loadScene(options.scene);
  if (options.steps >= 0) description.steps = options.steps;
  BuiltScene scene = buildScene(description);
  SceneGradientCheckOptions check;
  check.parameters = parseParameterList(options.parameters, "--params");
  check.check.tolerance = options.tolerance;
  check.checkpoints.strategy = parseCheckpointStrategy(options.checkpointing, "--checkpointing");
  check.checkpoints.period = options.period;
  check.checkpoints.maxStates = options.maxStates;
  std::printf("softfit gradcheck: %s (%d steps, %s, %s), loss = mass-weighted displacement + 0.1 kinetic\n",
              options.scene.c_str(), description.steps, integratorTypeName(description.integrator.type).c_str(),
              materialModelName(scene.model->elastic().model()).c_str());
  const GradientCheckReport report = checkSceneGradient(description, scene, check);
  std::printf("%s", formatGradientCheck(report).c_str());
  return report.passed ? 0 : 1;
}

}  // namespace

void addGradcheckCommand(CLI::App& app, int& exitCode) {
  auto options = std::make_shared<GradcheckOptions>();
  CLI::App* cmd = app.add_subcommand("gradcheck", "Check adjoint gradients against finite differences and a Taylor test");
  cmd->add_option("scene", options->scene, "Scene JSON file")->required();
  cmd->add_option("--params", options->parameters,
                  "Comma-separated parameters: E, nu, density, alpha1, alpha2, gravity[_x|_y|_z], "
                  "ground[_theta|_phi|_offset], velocity[_x|_y|_z], angular_velocity[_x|_y|_z]")
      ->capture_default_str();
  cmd->add_option("--steps", options->steps, "Override the scene's number of steps")->check(integerAtLeast(0));
  cmd->add_option("--tolerance", options->tolerance, "Relative error allowed per parameter")
      ->check(numberAbove(0))
      ->capture_default_str();
  cmd->add_option("--checkpointing", options->checkpointing, "all, periodic or binomial")->capture_default_str();
  cmd->add_option("--period", options->period, "Periodic checkpointing: states between checkpoints")
      ->check(integerAtLeast(1))
      ->capture_default_str();
  cmd->add_option("--max-states", options->maxStates, "Binomial checkpointing: states held at once")
      ->check(integerAtLeast(1))
      ->capture_default_str();
  cmd->callback([options, &exitCode] { exitCode = runGradcheck(*options); });
}

}  // namespace softfit::apps

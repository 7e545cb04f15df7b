// softfit command-line entry point: dispatches to the subcommands in apps/commands/.
// Exit codes (apps/commands/exit_codes.h): 0 success, 1 usage error or failed gradient
// check, 2 bad input, 3 failed numerical solve, 4 internal error.
#include <CLI/CLI.hpp>

#include "apps/commands/exit_codes.h"
#include "apps/commands/face_command.h"
#include "apps/commands/fit_command.h"
#include "apps/commands/gradcheck_command.h"
#include "apps/commands/reconstruct_command.h"
#include "apps/commands/simulate_command.h"
#include "apps/commands/solvers_command.h"
#include "apps/commands/synth_command.h"

int main(int argc, char** argv) {
  CLI::App app{"softfit: differentiable simulation of elastic solids and inverse parameter estimation"};
  app.require_subcommand(1);
  int exitCode = 0;
  softfit::apps::addSimulateCommand(app);
  softfit::apps::addSynthCommand(app);
  softfit::apps::addReconstructCommand(app);
  softfit::apps::addFitCommand(app, exitCode);
  softfit::apps::addGradcheckCommand(app, exitCode);
  softfit::apps::addSolversCommand(app);
  softfit::apps::addFaceCommand(app, exitCode);
  try {
    app.parse(argc, argv);
  } catch (...) {
    return softfit::apps::reportEscapedException(app);
  }
  return exitCode;
}

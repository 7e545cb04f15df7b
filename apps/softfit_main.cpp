// softfit command-line entry point: dispatches to the subcommands in apps/commands/.
// Exit codes (apps/commands/exit_codes.h): 0 success, 1 usage error or failed gradient
// check, 2 bad input, 3 failed numerical solve, 4 internal error.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "apps/commands/exit_codes.h"
#include "apps/commands/face_command.h"
#include "apps/commands/fit_command.h"
#include "apps/commands/gradcheck_command.h"
#include "apps/commands/reconstruct_command.h"
#include "apps/commands/simulate_command.h"
#include "apps/commands/solvers_command.h"
#include "apps/commands/sweep_command.h"
#include "apps/commands/synth_command.h"
#include "apps/distribute/distribution_factory.h"

namespace {

// The subcommand named on the command line (the first argument not starting with '-').
std::string subcommandName(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] != '-') return argv[i];
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  // Under mpirun / srun (built with MPI): MPI_Init first; fit and sweep spread their
  // tasks over the ranks, every other command refuses to run as several processes.
  std::unique_ptr<softfit::apps::WorkDistribution> distribution;
  try {
    distribution = softfit::apps::makeWorkDistribution(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "softfit: %s\n", e.what());
    return softfit::apps::kExitUsage;
  }
  const std::string command = subcommandName(argc, argv);
  // No subcommand (`softfit --help`, or a usage error): every rank parses, rank 0 prints.
  if (distribution->size() > 1 && !command.empty() && command != "fit" && command != "sweep") {
    if (distribution->isRoot())
      std::fprintf(stderr, "softfit: `%s` does not run under MPI (%d ranks); only fit and sweep do\n",
                   command.c_str(), distribution->size());
    return softfit::apps::kExitUsage;
  }
  if (!distribution->isRoot()) {
    // Rank 0 prints the run; the others keep only their error messages (stderr).
    if (!std::freopen("/dev/null", "w", stdout)) return softfit::apps::kExitInternalError;
  }
  CLI::App app{"softfit: differentiable simulation of elastic solids and inverse parameter estimation"};
  app.require_subcommand(1);
  int exitCode = 0;
  softfit::apps::addSimulateCommand(app);
  softfit::apps::addSynthCommand(app);
  softfit::apps::addReconstructCommand(app);
  softfit::apps::addFitCommand(app, exitCode, *distribution);
  softfit::apps::addSweepCommand(app, exitCode, *distribution);
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

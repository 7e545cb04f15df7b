#include "apps/commands/rank_timeout_option.h"
#include "apps/commands/option_checks.h"

namespace softfit::apps {

void addRankTimeoutOption(CLI::App* command, double& seconds) {
  command
      ->add_option("--rank-timeout", seconds,
                   "Under MPI: seconds a rank waits for the other ranks' results after finishing its own share "
                   "before it ends the job (exit 4; a hung rank); 0 = no limit (a rank that dies ends the job "
                   "through mpirun / srun)")
      ->check(numberAtLeast(0))
      ->capture_default_str();
}

}  // namespace softfit::apps

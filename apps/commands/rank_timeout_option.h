#pragma once
// --rank-timeout of the commands that run under mpirun (fit, sweep).
#include <CLI/CLI.hpp>

namespace softfit::apps {

// Seconds a rank waits for the others' results after finishing its own share before it
// ends the job (a hung rank); 0 = no limit. A rank that dies ends the job through mpirun.
void addRankTimeoutOption(CLI::App* command, double& seconds);

}  // namespace softfit::apps

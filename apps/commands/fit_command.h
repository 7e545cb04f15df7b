#pragma once
#include <CLI/CLI.hpp>

#include "apps/distribute/work_distribution.h"

namespace softfit::apps {

// `softfit fit scene.json --observations DIR --params E,nu,... -o outdir`: reconstructs
// physical parameters from a capture (point clouds or node displacements). Under mpirun
// the starts of --multi-start (also those of the bootstrap's refits) are spread over
// the ranks; rank 0 writes the outputs.
void addFitCommand(CLI::App& app, int& exitCode, WorkDistribution& distribution);

}  // namespace softfit::apps

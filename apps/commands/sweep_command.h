#pragma once
#include <CLI/CLI.hpp>

#include "apps/distribute/work_distribution.h"

namespace softfit::apps {

// `softfit sweep scene.json --observations DIR --grid E=1e3:1e4:16,nu=0.2:0.45:16
// [--lhs N --seed S] [--gradient] [--path FIT/history.csv ...] -o OUT`: the fit cost (and
// its gradient) at every point of a parameter grid or Latin hypercube, the same cost
// `softfit fit` minimizes; writes OUT/sweep.csv and OUT/sweep.png (with the paths of the
// fits given by --path drawn on it). Under mpirun the points are spread over the
// ranks; rank 0 writes the same files as a serial run.
void addSweepCommand(CLI::App& app, int& exitCode, WorkDistribution& distribution);

}  // namespace softfit::apps

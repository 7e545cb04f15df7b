#pragma once
#include <CLI/CLI.hpp>

namespace softfit::apps {

// `softfit fit scene.json --observations DIR --params E,nu,... -o outdir`: reconstructs
// physical parameters from a capture (point clouds or node displacements).
void addFitCommand(CLI::App& app, int& exitCode);

}  // namespace softfit::apps

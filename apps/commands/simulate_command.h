#pragma once
#include <CLI/CLI.hpp>

namespace softfit::apps {

// `softfit simulate scene.json -o outdir`: runs the scene and writes .pvd/.vtu frames
// and the final surface OBJ, with a progress line.
void addSimulateCommand(CLI::App& app);

}  // namespace softfit::apps

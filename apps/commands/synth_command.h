#pragma once
#include <CLI/CLI.hpp>

namespace softfit::apps {

// `softfit synth scene.json -o DIR`: simulates the scene and writes a synthetic capture
// (virtual depth-camera point clouds with optional noise, node displacements, the true
// parameters) that `softfit fit` can reconstruct the parameters from.
void addSynthCommand(CLI::App& app);

}  // namespace softfit::apps

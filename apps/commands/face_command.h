#pragma once
#include <CLI/CLI.hpp>

namespace softfit::apps {

// `softfit face generate|fit|solve|animate`: the muscle-based face model (face/).
//   generate -o DIR                        synthetic face model + targets (+ truth)
//   fit model.json --targets DIR -o OUT    multi-target fit of S, activations and jaws
//   solve model.json --targets DIR -o OUT  activation-only solve (S fixed) for new scans
//   animate model.json --expressions activations.json --from A --to B -o OUT
void addFaceCommand(CLI::App& app, int& exitCode);

}  // namespace softfit::apps

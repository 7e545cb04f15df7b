#pragma once
#include <CLI/CLI.hpp>

namespace softfit::apps {

// `softfit gradcheck scene.json --params E,nu,...`: adjoint vs central differences
// (step sweep) and a Taylor remainder test; exits non-zero when the check fails.
void addGradcheckCommand(CLI::App& app, int& exitCode);

}  // namespace softfit::apps

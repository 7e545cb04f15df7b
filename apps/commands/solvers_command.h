#pragma once
#include <CLI/CLI.hpp>

namespace softfit::apps {

// `softfit solvers scene.json`: takes one step of the scene (after --after-steps steps of
// the scene's own integrator) with each requested solver (projected Newton clamp / abs /
// analytic eigensystem, L-BFGS with the Laplacian initial matrix, projective dynamics)
// and prints iterations, time and the error against a tightly converged Newton solve.
void addSolversCommand(CLI::App& app);

}  // namespace softfit::apps

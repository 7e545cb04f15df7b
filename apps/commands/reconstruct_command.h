#pragma once
// `softfit reconstruct CAPTURE -o OUT`: raw depth capture (16-bit PNGs + intrinsics, rest
// frames, no masks) -> OUT/scene.json, OUT/observations/, OUT/report/
// (reconstruct/reconstruction.h).
#include <CLI/CLI.hpp>

namespace softfit::apps {

void addReconstructCommand(CLI::App& app);

}  // namespace softfit::apps

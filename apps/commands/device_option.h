#pragma once
// `--device cpu|cuda` for the commands that simulate: cuda selects the optional CUDA
// backend (cuda/, built when nvcc is found) for the Newmark-theta integrator.
#include <CLI/CLI.hpp>
#include <string>

#include "forward/integrators/time_integrator.h"

namespace softfit::apps {

void addDeviceOption(CLI::App* command, std::string& device);

// Sets settings.factory (the registry's device hook) for "cuda". Throws InputError naming
// --device for an unknown device, a build without the CUDA backend, no usable GPU, or an
// integrator whose registry row is not runsOnCuda (all but newmark_theta).
void applyDevice(const std::string& device, IntegratorSettings& settings);

}  // namespace softfit::apps

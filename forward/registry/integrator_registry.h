#pragma once
// The integrator registry: every CPU TimeIntegrator, one descriptor each, in one table
// (integrator_registry.cpp). A descriptor names the integrator, says which settings it
// takes (the scheme and the scene's "integrator.solver") and builds it. The settings
// themselves are plain data (forward/integrators/integrator_settings.h), parsed by
// scene/ without building anything. Another device plugs in through the settings'
// device hook, IntegratorSettings::factory (the CUDA backend: apps/commands/device_option.cpp);
// it needs no row here, only a descriptor with runsOnCuda for the schemes it implements.
//
// Adding an integrator: its class, plus one row (name, selects, make, runsOnCuda).
#include <memory>
#include <vector>

#include "forward/integrators/time_integrator.h"

namespace softfit {

struct IntegratorDescriptor {
  const char* name;     // e.g. "step_solver"
  const char* summary;  // one line for messages and documentation
  // True for the settings this integrator handles; exactly one row selects any settings.
  bool (*selects)(const IntegratorSettings& settings);
  std::unique_ptr<TimeIntegrator> (*make)(const IntegratorSettings& settings);
  // The CUDA backend (cuda/, optional) implements this integrator for `--device cuda`.
  bool runsOnCuda;
};

// The table, in a fixed order.
const std::vector<IntegratorDescriptor>& integratorRegistry();
// The row that selects `settings` (std::logic_error if none does: a registry defect).
const IntegratorDescriptor& findIntegrator(const IntegratorSettings& settings);
// settings.factory when set (the device hook), else findIntegrator(settings).make.
std::unique_ptr<TimeIntegrator> makeIntegrator(const IntegratorSettings& settings);

}  // namespace softfit

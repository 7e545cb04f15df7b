#include "apps/commands/device_option.h"

#include "forward/errors.h"
#include "forward/registry/integrator_registry.h"
#ifdef SOFTFIT_HAVE_CUDA
#include "cuda/cuda_newmark_integrator.h"
#endif

namespace softfit::apps {

void addDeviceOption(CLI::App* command, std::string& device) {
  command->add_option("--device", device, "cpu, or cuda (Newmark-theta on the GPU; needs a CUDA build and a GPU)")
      ->capture_default_str();
}

void applyDevice(const std::string& device, IntegratorSettings& settings) {
  if (device == "cpu") return;
  if (device != "cuda") throw InputError("--device = \"" + device + "\": unknown (valid: cpu, cuda)");
#ifdef SOFTFIT_HAVE_CUDA
  std::string why;
  if (!cudaDeviceAvailable(&why)) throw InputError("--device cuda: no usable GPU (" + why + ")");
  // The registry says which integrators the CUDA backend implements (newmark_theta).
  if (!findIntegrator(settings).runsOnCuda)
    throw InputError("--device cuda: only the newmark_theta integrator runs on the GPU (scene has " +
                     integratorTypeName(settings.type) + ")");
  settings.factory = [](const IntegratorSettings& s) { return makeCudaIntegrator(s); };
#else
  (void)settings;
  throw InputError("--device cuda: this softfit was built without the CUDA backend (no nvcc found at configure time)");
#endif
}

}  // namespace softfit::apps

#pragma once
// Host-side query of the optional CUDA backend; no CUDA headers needed to include it.
#include <string>

namespace softfit {

// True when a CUDA device can be used. `why` (optional) receives the device name, or
// the reason there is none (no driver, no device, ...).
bool cudaDeviceAvailable(std::string* why = nullptr);

}  // namespace softfit

// Device query for the host API (cuda_device.h).
#include <cuda_runtime.h>

#include "cuda/cuda_device.h"

namespace softfit {

bool cudaDeviceAvailable(std::string* why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    if (why) *why = std::string("no usable CUDA device: ") + cudaGetErrorString(status);
    cudaGetLastError();  // clear the sticky error state
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device found";
    return false;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess && why)
    *why = std::string(prop.name) + " (compute capability " + std::to_string(prop.major) + "." +
           std::to_string(prop.minor) + ")";
  return true;
}

}  // namespace softfit

// Serial host emulation of the GPU Newmark kernels (HostExecutor): the same kernel
// bodies and reduction order as the CUDA backend, runnable without a GPU.
#include "cuda/host_executor.h"
#include "cuda/newmark_pipeline.h"

namespace softfit::gpu {

std::unique_ptr<NewmarkBackend> makeHostNewmarkBackend(BackendPrecision precision) {
  if (precision == BackendPrecision::Float) return std::make_unique<NewmarkPipeline<HostExecutor, float>>();
  return std::make_unique<NewmarkPipeline<HostExecutor, double>>();
}

}  // namespace softfit::gpu

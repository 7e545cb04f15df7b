// The GPU Newmark backend: NewmarkPipeline on CudaExecutor, double and float.
#include "cuda/cuda_executor.cuh"
#include "cuda/newmark_pipeline.h"

namespace softfit::gpu {

std::unique_ptr<NewmarkBackend> makeCudaNewmarkBackend(BackendPrecision precision) {
  int count = 0;
  checkCuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  if (count == 0) throw SolveError("newmark_theta (GPU): no CUDA device");
  if (precision == BackendPrecision::Float) return std::make_unique<NewmarkPipeline<CudaExecutor, float>>();
  return std::make_unique<NewmarkPipeline<CudaExecutor, double>>();
}

}  // namespace softfit::gpu

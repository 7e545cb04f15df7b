#pragma once
// CUDA execution of the Newmark kernels: device buffers (cudaMalloc, RAII), one thread
// per item (grid-stride loop), and the deterministic two-stage tree reduction of
// reduction_layout.h (no atomics; the launch shape depends only on n). Included only
// by .cu files.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda/reduction_layout.h"
#include "forward/errors.h"

namespace softfit::gpu {

inline void checkCuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw SolveError(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(status));
}

template <typename F>
__global__ void forEachKernel(int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) f(i);
}

template <int K, typename F>
__global__ void __launch_bounds__(kReduceThreads) reduceStage1(int n, F f, double* partial) {
  __shared__ double lane[K][kReduceThreads];
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int threads = blockDim.x * gridDim.x;
  double acc[K];
  for (int k = 0; k < K; ++k) acc[k] = 0.0;
  for (int i = t; i < n; i += threads) {
    const Sums<K> s = f(i);
    for (int k = 0; k < K; ++k) acc[k] += s.v[k];
  }
  for (int k = 0; k < K; ++k) lane[k][threadIdx.x] = acc[k];
  for (int stride = kReduceThreads / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (threadIdx.x < stride)
      for (int k = 0; k < K; ++k) lane[k][threadIdx.x] += lane[k][threadIdx.x + stride];
  }
  if (threadIdx.x == 0)
    for (int k = 0; k < K; ++k) partial[k * kReduceMaxBlocks + blockIdx.x] = lane[k][0];
}

template <int K>
__global__ void __launch_bounds__(kReduceMaxBlocks) reduceStage2(int blocks, const double* partial, double* out) {
  __shared__ double lane[K][kReduceMaxBlocks];
  for (int k = 0; k < K; ++k)
    lane[k][threadIdx.x] = threadIdx.x < blocks ? partial[k * kReduceMaxBlocks + threadIdx.x] : 0.0;
  for (int stride = kReduceMaxBlocks / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (threadIdx.x < stride)
      for (int k = 0; k < K; ++k) lane[k][threadIdx.x] += lane[k][threadIdx.x + stride];
  }
  if (threadIdx.x == 0)
    for (int k = 0; k < K; ++k) out[k] = lane[k][0];
}

class CudaExecutor {
 public:
  template <typename T>
  class Buffer {
   public:
    Buffer() = default;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() { release(); }
    template <typename U>
    void assign(const std::vector<U>& host) {
      assign(host.data(), host.size());
    }
    template <typename U>
    void assign(const U* host, std::size_t n) {
      reserve(n);
      if (n == 0) return;
      const T* src = nullptr;
      std::vector<T> converted;
      if constexpr (std::is_same_v<T, U>) {
        src = host;
      } else {
        converted.assign(host, host + n);
        src = converted.data();
      }
      checkCuda(cudaMemcpy(data_, src, n * sizeof(T), cudaMemcpyHostToDevice), "upload");
    }
    void resize(std::size_t n) {
      reserve(n);
      setZero();
    }
    void setZero() {
      if (size_ > 0) checkCuda(cudaMemset(data_, 0, size_ * sizeof(T)), "memset");
    }
    template <typename U>
    void copyTo(U* host, std::size_t n) const {
      if (n == 0) return;
      if constexpr (std::is_same_v<T, U>) {
        checkCuda(cudaMemcpy(host, data_, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
      } else {
        std::vector<T> tmp(n);
        checkCuda(cudaMemcpy(tmp.data(), data_, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
        for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<U>(tmp[i]);
      }
    }
    T* data() { return data_; }
    const T* data() const { return data_; }
    std::size_t size() const { return size_; }

   private:
    void reserve(std::size_t n) {
      if (n == size_) return;
      release();
      if (n > 0) checkCuda(cudaMalloc(&data_, n * sizeof(T)), "cudaMalloc");
      size_ = n;
    }
    void release() {
      if (data_) cudaFree(data_);
      data_ = nullptr;
      size_ = 0;
    }
    T* data_ = nullptr;
    std::size_t size_ = 0;
  };

  CudaExecutor() {
    partial_.resize(static_cast<std::size_t>(kReduceMaxBlocks) * kMaxSums);
    result_.resize(kMaxSums);
  }

  template <typename F>
  void forEach(int n, const F& f) const {
    if (n <= 0) return;
    constexpr int threads = 256;
    int blocks = (n + threads - 1) / threads;
    if (blocks > 65535 * 8) blocks = 65535 * 8;
    forEachKernel<<<blocks, threads>>>(n, f);
    checkCuda(cudaGetLastError(), "kernel launch");
  }

  template <int K, typename F>
  Sums<K> sum(int n, const F& f) {
    static_assert(K <= kMaxSums, "too many sums");
    const int blocks = reduceBlocks(n);
    reduceStage1<K><<<blocks, kReduceThreads>>>(n, f, partial_.data());
    checkCuda(cudaGetLastError(), "reduction launch");
    reduceStage2<K><<<1, kReduceMaxBlocks>>>(blocks, partial_.data(), result_.data());
    checkCuda(cudaGetLastError(), "reduction launch");
    Sums<K> out;
    checkCuda(cudaMemcpy(out.v, result_.data(), K * sizeof(double), cudaMemcpyDeviceToHost), "reduction result");
    return out;
  }

  void synchronize() const { checkCuda(cudaDeviceSynchronize(), "synchronize"); }

 private:
  static constexpr int kMaxSums = 5;
  Buffer<double> partial_, result_;
};

}  // namespace softfit::gpu

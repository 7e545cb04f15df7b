#pragma once
// Serial host execution of the Newmark kernels (newmark_kernels.h): the "host-emulated"
// backend, used by the GPU-free tests and for debugging. Buffers are std::vectors;
// reductions follow reduction_layout.h exactly, so they add in the GPU's order.
#include <cstddef>
#include <vector>

#include "cuda/reduction_layout.h"

namespace softfit::gpu {

struct HostExecutor {
  template <typename T>
  class Buffer {
   public:
    template <typename U>
    void assign(const std::vector<U>& host) {
      assign(host.data(), host.size());
    }
    template <typename U>
    void assign(const U* host, std::size_t n) {
      data_.resize(n);
      for (std::size_t i = 0; i < n; ++i) data_[i] = static_cast<T>(host[i]);
    }
    void resize(std::size_t n) { data_.assign(n, T(0)); }
    void setZero() { data_.assign(data_.size(), T(0)); }
    template <typename U>
    void copyTo(U* host, std::size_t n) const {
      for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<U>(data_[i]);
    }
    T* data() { return data_.empty() ? nullptr : data_.data(); }
    const T* data() const { return data_.empty() ? nullptr : data_.data(); }
    std::size_t size() const { return data_.size(); }

   private:
    std::vector<T> data_;
  };

  template <typename F>
  void forEach(int n, const F& f) const {
    for (int i = 0; i < n; ++i) f(i);
  }

  template <int K, typename F>
  Sums<K> sum(int n, const F& f) const {
    const int blocks = reduceBlocks(n);
    const int threads = blocks * kReduceThreads;
    std::vector<double> lane(static_cast<std::size_t>(threads) * K, 0.0);
    for (int t = 0; t < threads; ++t)
      for (int i = t; i < n; i += threads) {
        const Sums<K> s = f(i);
        for (int k = 0; k < K; ++k) lane[static_cast<std::size_t>(t) * K + k] += s.v[k];
      }
    std::vector<double> partial(static_cast<std::size_t>(kReduceMaxBlocks) * K, 0.0);
    for (int b = 0; b < blocks; ++b) {
      double* base = lane.data() + static_cast<std::size_t>(b) * kReduceThreads * K;
      for (int stride = kReduceThreads / 2; stride > 0; stride /= 2)
        for (int t = 0; t < stride; ++t)
          for (int k = 0; k < K; ++k) base[t * K + k] += base[(t + stride) * K + k];
      for (int k = 0; k < K; ++k) partial[static_cast<std::size_t>(b) * K + k] = base[k];
    }
    for (int stride = kReduceMaxBlocks / 2; stride > 0; stride /= 2)
      for (int t = 0; t < stride; ++t)
        for (int k = 0; k < K; ++k) partial[t * K + k] += partial[(t + stride) * K + k];
    Sums<K> out;
    for (int k = 0; k < K; ++k) out.v[k] = partial[k];
    return out;
  }

  void synchronize() const {}
};

}  // namespace softfit::gpu

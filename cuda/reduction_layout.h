#pragma once
// The fixed shape of every deterministic reduction (dot products, parameter sums):
// stage 1 runs blocks(n) blocks of kReduceThreads threads; thread t sums items
// t, t + T, t + 2T, ... (T = blocks * kReduceThreads) in order, then each block halves
// its partial sums in a tree (stride 128, 64, ..., 1); stage 2 pads the block partials
// with zeros to kReduceMaxBlocks and halves them in a tree (stride 512, ..., 1).
// The shape depends only on n (not on the GPU), so results are bitwise reproducible,
// and the host emulation below performs the identical sequence of additions.
#include "cuda/newmark_kernels.h"

namespace softfit::gpu {

constexpr int kReduceThreads = 256;
constexpr int kReduceMaxBlocks = 1024;

inline int reduceBlocks(int n) {
  const int b = (n + kReduceThreads - 1) / kReduceThreads;
  return b < 1 ? 1 : (b > kReduceMaxBlocks ? kReduceMaxBlocks : b);
}

}  // namespace softfit::gpu

#pragma once
// How many threads the BLAS under CHOLMOD may use, set by softfit per call site rather
// than left to the BLAS' defaults. OpenBLAS' pthread workers busy-wait (sched_yield)
// between calls: for small dense kernels the waiting costs more than the work (on the
// 1.8k-node cut-cell torus half of all samples, sys time 2/3 of user). So softfit runs the
// BLAS single-threaded except around large supernodal factorizations.
//
// CHOLMOD's supernodal factorization also opens OpenMP regions of its own (zeroing and
// scattering into supernodes, a fixed 4 threads even on 2 cores): SerialOpenMpScope runs
// them on the calling thread (they write disjoint entries, so the bits do not change).
//
// The OpenBLAS controls are looked up at run time (dlsym), so another BLAS (reference,
// ATLAS, BLIS) simply keeps its own behaviour: availableBlasThreads() is then 1 and the
// scope does nothing. The thread count depends only on the problem and the environment
// (OPENBLAS_NUM_THREADS or the core count), so results stay deterministic.

namespace softfit {

// The BLAS thread count when softfit started (OpenBLAS: OPENBLAS_NUM_THREADS / cores);
// 1 when the BLAS has no thread control.
int availableBlasThreads();

// Dense work (flops) of a factorization from which several BLAS threads pay off: below
// it the workers' wake-up and busy-waiting outweigh the split. The workers go on spinning
// after the factorization, through the element loops that follow (the 25k-tet face's
// 1.7 GFlop factorizations: 30% sys time and no faster with 2 threads at the old 1e9);
// the 98k-tet mesh's 33 GFlop ones gain.
constexpr double kParallelBlasFlops = 4e9;

// BLAS threads for a factorization of `flops` floating-point operations.
int blasThreadsForFlops(double flops);

// Sets the BLAS thread count for the lifetime of the scope and restores the previous one.
class BlasThreadScope {
 public:
  explicit BlasThreadScope(int threads);
  ~BlasThreadScope();
  BlasThreadScope(const BlasThreadScope&) = delete;
  BlasThreadScope& operator=(const BlasThreadScope&) = delete;

 private:
  int previous_;
};

// The BLAS thread count in effect now (1 without thread control).
int currentBlasThreads();

// OpenMP parallel regions started by the calling thread while the scope lives run on one
// thread: max-active-levels 0, an ICV of the thread in libgomp (another thread needs its
// own scope). Restores the previous setting. No-op without OpenMP.
class SerialOpenMpScope {
 public:
  SerialOpenMpScope();
  ~SerialOpenMpScope();
  SerialOpenMpScope(const SerialOpenMpScope&) = delete;
  SerialOpenMpScope& operator=(const SerialOpenMpScope&) = delete;

 private:
  int previous_ = 0;
};

// True while OpenMP regions would run in parallel (max-active-levels >= 1).
bool openMpRegionsParallel();

}  // namespace softfit

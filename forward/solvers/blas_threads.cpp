#include "forward/solvers/blas_threads.h"

#include <dlfcn.h>

#include <algorithm>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace softfit {

namespace {

using SetThreads = void (*)(int);
using GetThreads = int (*)();

struct BlasThreadControl {
  SetThreads set = nullptr;
  GetThreads get = nullptr;
  int available = 1;

  BlasThreadControl() {
    set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    get = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
    if (!set || !get) {
      set = nullptr;
      get = nullptr;
      return;
    }
    available = std::max(1, get());
    set(1);  // softfit's default: single-threaded BLAS (see the header)
  }
};

// Looked up once; OpenBLAS is loaded with CHOLMOD, before any solver runs.
BlasThreadControl& control() {
  static BlasThreadControl instance;
  return instance;
}

}  // namespace

int availableBlasThreads() { return control().available; }

int currentBlasThreads() {
  const BlasThreadControl& c = control();
  return c.get ? c.get() : 1;
}

int blasThreadsForFlops(double flops) { return flops >= kParallelBlasFlops ? availableBlasThreads() : 1; }

BlasThreadScope::BlasThreadScope(int threads) : previous_(currentBlasThreads()) {
  const BlasThreadControl& c = control();
  threads = std::clamp(threads, 1, c.available);
  if (c.set && threads != previous_) c.set(threads);
}

BlasThreadScope::~BlasThreadScope() {
  const BlasThreadControl& c = control();
  if (c.set && currentBlasThreads() != previous_) c.set(previous_);
}

#ifdef _OPENMP
SerialOpenMpScope::SerialOpenMpScope() : previous_(omp_get_max_active_levels()) { omp_set_max_active_levels(0); }
SerialOpenMpScope::~SerialOpenMpScope() { omp_set_max_active_levels(previous_); }
bool openMpRegionsParallel() { return omp_get_max_active_levels() >= 1; }
#else
SerialOpenMpScope::SerialOpenMpScope() = default;
SerialOpenMpScope::~SerialOpenMpScope() = default;
bool openMpRegionsParallel() { return false; }
#endif

}  // namespace softfit

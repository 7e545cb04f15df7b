#include "apps/distribute/thread_budget.h"

#include <algorithm>

#ifdef SOFTFIT_OPENMP
#include <omp.h>
#endif

// OpenBLAS' runtime setter; weak, so a build against another BLAS links too.
extern "C" void openblas_set_num_threads(int threads) __attribute__((weak));

namespace softfit::apps {

int threadBudget(int cores, int processesOnMachine) {
  return std::max(1, std::max(1, cores) / std::max(1, processesOnMachine));
}

void pinThreadBudget(int threads) {
  threads = std::max(1, threads);
#ifdef SOFTFIT_OPENMP
  omp_set_num_threads(threads);
#endif
  if (openblas_set_num_threads) openblas_set_num_threads(threads);
}

}  // namespace softfit::apps

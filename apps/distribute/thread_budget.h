#pragma once
// The threads one process may use when K processes share a machine: cores / K (at
// least 1), applied to the OpenMP parallel loops (forward/math/parallel_ranges.h: 0
// threads = omp_get_max_threads()) and to OpenBLAS (CHOLMOD's supernodal kernels), so
// K MPI ranks on one machine do not oversubscribe its cores.
namespace softfit::apps {

int threadBudget(int cores, int processesOnMachine);
// Sets the OpenMP default team size and, when the BLAS is OpenBLAS, its thread count.
void pinThreadBudget(int threads);

}  // namespace softfit::apps

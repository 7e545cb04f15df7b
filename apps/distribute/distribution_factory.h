#pragma once
// The WorkDistribution of this process: MPI when softfit was built with MPI
// (SOFTFIT_HAVE_MPI) and a launcher started it (mpirun / mpiexec / srun set
// OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_RANK); serial otherwise. Call once, first
// thing in main (MPI_Init may edit argc/argv); the object finalizes MPI when destroyed.
#include <memory>

#include "apps/distribute/work_distribution.h"

namespace softfit::apps {

// True when softfit was built with MPI.
bool builtWithMpi();
// True when the environment says an MPI launcher started this process.
bool launchedByMpiLauncher();
// The launcher's process count from the environment (1 when none says).
int launcherProcessCount();

// Throws std::runtime_error when a launcher started several processes but softfit was
// built without MPI (each would run the whole job).
std::unique_ptr<WorkDistribution> makeWorkDistribution(int& argc, char**& argv);

}  // namespace softfit::apps

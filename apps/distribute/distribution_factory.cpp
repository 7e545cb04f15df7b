#include "apps/distribute/distribution_factory.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#ifdef SOFTFIT_HAVE_MPI
#include "apps/distribute/mpi_distribution.h"
#endif

namespace softfit::apps {

bool builtWithMpi() {
#ifdef SOFTFIT_HAVE_MPI
  return true;
#else
  return false;
#endif
}

bool launchedByMpiLauncher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

int launcherProcessCount() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"}) {
    if (const char* value = std::getenv(name)) {
      const int n = std::atoi(value);
      if (n > 0) return n;
    }
  }
  return 1;
}

std::unique_ptr<WorkDistribution> makeWorkDistribution(int& argc, char**& argv) {
  if (!launchedByMpiLauncher()) return std::make_unique<SerialDistribution>();
#ifdef SOFTFIT_HAVE_MPI
  return std::make_unique<MpiDistribution>(argc, argv);
#else
  if (launcherProcessCount() > 1)
    throw std::runtime_error("softfit was built without MPI, but an MPI launcher started " +
                             std::to_string(launcherProcessCount()) +
                             " processes: each would run the whole job. Rebuild with libopenmpi-dev installed "
                             "(scripts/install-deps.sh) or run one process");
  return std::make_unique<SerialDistribution>();
#endif
}

}  // namespace softfit::apps

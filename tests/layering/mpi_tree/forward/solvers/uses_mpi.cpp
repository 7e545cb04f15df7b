// Fixture for the ctest layering_rejects_mpi: a solver library may not include MPI.
#include <mpi.h>

#pragma once
// Packs a PhysicalModel (linear or warped-corotated elasticity, lumped mass, attachment
// springs, Dirichlet mask, ground-contact points) into the flat arrays of
// PackedNewmarkModel. Host-only; the result is what the device (or the host-emulated)
// Newmark backend uploads. Throws InputError for materials the Newmark scheme does not
// support, like NewmarkThetaIntegrator.
#include "cuda/packed_newmark_model.h"
#include "forward/energies/physical_model.h"

namespace softfit::gpu {

PackedNewmarkModel packNewmarkModel(const PhysicalModel& model);

// The packed stiffness pattern and values as an Eigen matrix with the CPU pattern's
// structure (both triangles), from BSR values (9 per block, row-major). For tests.
SparseMatrix unpackBsr(const PackedNewmarkModel& packed, const BlockSparsePattern& pattern,
                       const std::vector<double>& blockValues);

}  // namespace softfit::gpu

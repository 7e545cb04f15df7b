#pragma once
// The per-step work of the Newmark-theta scheme on flat arrays, behind a host-only
// interface (no CUDA or Eigen types): CudaNewmarkIntegrator drives one of these.
// Implementations: NewmarkPipeline<CudaExecutor, T> (GPU, newmark_device_backend.cu) and
// NewmarkPipeline<HostExecutor, T> (serial host emulation of the same kernels).
#include <memory>
#include <vector>

#include "cuda/packed_newmark_model.h"

namespace softfit::gpu {

class NewmarkBackend {
 public:
  virtual ~NewmarkBackend() = default;
  // Uploads the packed model (rest stiffness, patterns, masses, contact points).
  virtual void load(const PackedNewmarkModel& model) = 0;
  // One forward step from (x, v) (3N each): assembles A, b (rotations and contact from
  // x), eliminates Dirichlet dofs (prescribed: 3N displacements, read at fixed dofs;
  // may be null when nothing is fixed) and solves A u' = b by block-Jacobi PCG starting
  // at u = x - X. Writes u' (3N).
  virtual PcgReport step(const NewmarkStepParameters& s, const double* x, const double* v, const double* prescribed,
                         double* uNext) = 0;
  // Reverse pass of the step (x, v) -> xNext: lambda = A^-1 uBar (uBar 3N, zero at
  // fixed dofs), then the products of newmark_theta_adjoint.cpp step 3.
  virtual void adjoint(const NewmarkStepParameters& s, const double* x, const double* v, const double* xNext,
                       const double* uBar, NewmarkAdjointOutputs& out) = 0;
  // The stiffness K, system matrix A (after elimination) and right-hand side b of the
  // last step() (BSR values, 9 per block), for tests.
  virtual void lastSystem(std::vector<double>& K, std::vector<double>& A, std::vector<double>& b) const = 0;
  // Element rotations (9 per element, row-major) of the last assembly.
  virtual void lastRotations(std::vector<double>& R) const = 0;
};

enum class BackendPrecision { Double, Float };

std::unique_ptr<NewmarkBackend> makeHostNewmarkBackend(BackendPrecision precision);
// Throws SolveError when no CUDA device can be used.
std::unique_ptr<NewmarkBackend> makeCudaNewmarkBackend(BackendPrecision precision);

}  // namespace softfit::gpu

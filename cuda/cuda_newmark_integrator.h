#pragma once
// The thesis' Newmark-theta scheme (linear / warped-corotated, semi-implicit ground
// contact, Rayleigh damping, attachment springs, Dirichlet nodes) with the per-step work
// on a CUDA GPU: element rotations, rotated-stiffness assembly into the CPU's block
// pattern, contact, the Newmark system A u = b and its block-Jacobi PCG solve, plus the
// adjoint step (transpose solve - A is symmetric - and the state / parameter products
// of newmark_theta_adjoint.cpp). Same equations and results as NewmarkThetaIntegrator
// (relative ~1e-10 in double with the default PCG tolerance 1e-12).
//
// Usable from plain C++ (no CUDA headers). Execution::HostEmulation runs the same
// kernels serially on the host (tests, debugging, machines without a GPU).
//
// The device keeps a packed copy of the model (rest stiffness, masses, patterns,
// contact points, Dirichlet mask). It is packed on first use and again after reset(),
// which the Simulator and the adjoint driver call at the start of every run: change
// per-element parameters, densities, springs or Dirichlet groups between runs only.
// Scalars (damping, gravity, ground plane, dt, theta) are read every step.
#include <memory>
#include <string>

#include "cuda/cuda_device.h"
#include "forward/integrators/time_integrator.h"

namespace softfit {

namespace gpu {
class NewmarkBackend;
}

struct CudaNewmarkOptions {
  enum class Execution { Device, HostEmulation };
  enum class Precision { Double, Float };
  Execution execution = Execution::Device;
  Precision precision = Precision::Double;  // Float: PCG tolerance raised to >= 1e-5
  int maxPcgIterations = 20000;
};

class CudaNewmarkIntegrator final : public TimeIntegrator {
 public:
  // Throws InputError for theta outside [1/2, 1), SolveError when Execution::Device is
  // requested and no CUDA device is usable (see cudaDeviceAvailable).
  explicit CudaNewmarkIntegrator(const IntegratorSettings& settings, CudaNewmarkOptions options = {});
  ~CudaNewmarkIntegrator() override;

  State step(PhysicalModel& model, const State& current, const State* previous, double dt) override;
  void adjointStep(PhysicalModel& model, const State& next, const State& current, const State* previous, double dt,
                   StepAdjoint& adjoint) override;
  IntegratorType type() const override { return IntegratorType::NewmarkTheta; }
  void reset() override { loadedModel_ = nullptr; }

  double theta() const { return theta_; }
  const CudaNewmarkOptions& options() const { return options_; }
  // The backend of the last step (for tests: the assembled system and rotations).
  const gpu::NewmarkBackend& backend() const { return *backend_; }

 private:
  void ensureLoaded(const PhysicalModel& model);
  double tolerance() const;

  double theta_;
  IntegratorSettings settings_;
  CudaNewmarkOptions options_;
  std::unique_ptr<gpu::NewmarkBackend> backend_;
  const PhysicalModel* loadedModel_ = nullptr;
};

// makeIntegrator for `--device cuda`: a CudaNewmarkIntegrator for
// IntegratorType::NewmarkTheta; throws InputError for other integrator types.
std::unique_ptr<TimeIntegrator> makeCudaIntegrator(const IntegratorSettings& settings,
                                                   CudaNewmarkOptions options = {});

}  // namespace softfit

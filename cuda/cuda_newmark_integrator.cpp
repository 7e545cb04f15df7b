#include "cuda/cuda_newmark_integrator.h"

#include <algorithm>
#include <sstream>

#include "cuda/newmark_backend.h"
#include "cuda/packed_newmark_model_builder.h"
#include "forward/errors.h"
#include "forward/integrators/newmark_velocity_update.h"

namespace softfit {

namespace {

gpu::NewmarkStepParameters stepParameters(const PhysicalModel& model, double dt, double theta, double tolerance,
                                          int maxIterations) {
  gpu::NewmarkStepParameters p;
  p.dt = dt;
  p.theta = theta;
  p.alpha1 = model.damping.alpha1;
  p.alpha2 = model.damping.alpha2;
  for (int k = 0; k < 3; ++k) p.gravity[k] = model.gravity[k];
  p.contact = model.ground.has_value();
  if (model.ground) {
    const GroundPlane& plane = model.ground->plane();
    for (int k = 0; k < 3; ++k) p.normal[k] = plane.normal[k];
    p.offset = plane.offset;
    p.stiffness = plane.stiffness;
    p.sharpness = plane.sharpness;
  }
  p.pcgTolerance = tolerance;
  p.maxPcgIterations = maxIterations;
  return p;
}

Eigen::Map<const VecX> asVector(const std::vector<double>& v) {
  return Eigen::Map<const VecX>(v.data(), static_cast<Eigen::Index>(v.size()));
}

}  // namespace

CudaNewmarkIntegrator::CudaNewmarkIntegrator(const IntegratorSettings& settings, CudaNewmarkOptions options)
    : theta_(settings.theta), settings_(settings), options_(options) {
  if (!(theta_ >= 0.5 && theta_ < 1.0)) {
    std::ostringstream msg;
    msg << "integrator.theta = " << theta_ << ": must be in [0.5, 1)";
    throw InputError(msg.str());
  }
  const auto precision = options.precision == CudaNewmarkOptions::Precision::Float ? gpu::BackendPrecision::Float
                                                                                   : gpu::BackendPrecision::Double;
  if (options.execution == CudaNewmarkOptions::Execution::HostEmulation) {
    backend_ = gpu::makeHostNewmarkBackend(precision);
  } else {
    std::string why;
    if (!cudaDeviceAvailable(&why)) throw SolveError("newmark_theta on the GPU: " + why);
    backend_ = gpu::makeCudaNewmarkBackend(precision);
  }
}

CudaNewmarkIntegrator::~CudaNewmarkIntegrator() = default;

double CudaNewmarkIntegrator::tolerance() const {
  if (options_.precision == CudaNewmarkOptions::Precision::Float) return std::max(settings_.pcgTolerance, 1e-5);
  return settings_.pcgTolerance;
}

void CudaNewmarkIntegrator::ensureLoaded(const PhysicalModel& model) {
  if (loadedModel_ == &model) return;
  backend_->load(gpu::packNewmarkModel(model));
  loadedModel_ = &model;
}

State CudaNewmarkIntegrator::step(PhysicalModel& model, const State& current, const State* /*previous*/, double dt) {
  ensureLoaded(model);
  const VecX& X = model.restPositions();
  State next;
  next.time = current.time + dt;
  const DofMask fixed = model.fixedDofs();
  const bool anyFixed = std::any_of(fixed.begin(), fixed.end(), [](char f) { return f != 0; });
  VecX prescribedU;
  if (anyFixed) {
    VecX prescribed = current.x;
    model.dirichlet.applyPositions(next.time, prescribed);
    prescribedU = prescribed - X;
  }
  VecX un(model.dofCount());
  const gpu::PcgReport r =
      backend_->step(stepParameters(model, dt, theta_, tolerance(), options_.maxPcgIterations), current.x.data(),
                     current.v.data(), anyFixed ? prescribedU.data() : nullptr, un.data());
  last_ = StepStatistics{};
  last_.iterations = r.iterations;
  last_.residual = r.relativeResidual;
  last_.converged = r.converged;
  if (!r.converged) {
    std::ostringstream msg;
    msg << "newmark_theta (GPU) step to t = " << next.time << ": PCG did not converge in " << r.iterations
        << " iterations (relative residual " << r.relativeResidual << ")";
    throw SolveError(msg.str());
  }
  if (!un.allFinite()) throw SolveError("newmark_theta (GPU): non-finite displacement at t = " + std::to_string(next.time));
  const VecX uPrev = current.x - X;
  next.x = X + un;
  next.v = newmarkVelocity(un, uPrev, current.v, theta_, dt);
  model.dirichlet.applyVelocities(next.time, next.v);
  return next;
}

void CudaNewmarkIntegrator::adjointStep(PhysicalModel& model, const State& next, const State& current,
                                        const State* /*previous*/, double dt, StepAdjoint& adj) {
  ensureLoaded(model);
  const DofMask fixed = model.fixedDofs();
  // v' = a (u' - u_n) - ((1 - theta) / theta) v_n (host: these are the incoming adjoints).
  const VecX uBar = newmarkVelocityAdjoint(adj, fixed, theta_, dt);

  gpu::NewmarkAdjointOutputs out;
  backend_->adjoint(stepParameters(model, dt, theta_, tolerance(), options_.maxPcgIterations), current.x.data(),
                    current.v.data(), next.x.data(), uBar.data(), out);
  if (!out.solve.converged) {
    std::ostringstream msg;
    msg << "newmark_theta (GPU) adjoint at t = " << next.time << ": PCG did not converge (relative residual "
        << out.solve.relativeResidual << ")";
    throw SolveError(msg.str());
  }
  adj.currentX += asVector(out.xBar);
  adj.currentV += asVector(out.vBar);
  ModelGradient& grad = *adj.parameters;
  grad.mu += asVector(out.muBar);
  grad.lambda += asVector(out.lambdaBar);
  grad.density += asVector(out.densityBar);
  grad.alpha1 += out.alpha1;
  grad.alpha2 += out.alpha2;
  grad.gravity += Vec3(out.gravity[0], out.gravity[1], out.gravity[2]);
  if (model.ground) {
    grad.groundNormal += Vec3(out.normal[0], out.normal[1], out.normal[2]);
    grad.groundOffset += out.offset;
  }
}

std::unique_ptr<TimeIntegrator> makeCudaIntegrator(const IntegratorSettings& settings, CudaNewmarkOptions options) {
  if (settings.type != IntegratorType::NewmarkTheta)
    throw InputError("the CUDA device supports integrator.type \"newmark_theta\" only (got \"" +
                     integratorTypeName(settings.type) + "\")");
  return std::make_unique<CudaNewmarkIntegrator>(settings, options);
}

}  // namespace softfit

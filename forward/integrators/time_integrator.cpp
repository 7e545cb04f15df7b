#include "forward/integrators/time_integrator.h"

#include "forward/errors.h"
#include "forward/integrators/incremental_potential_integrator.h"
#include "forward/integrators/newmark_theta_integrator.h"
#include "forward/integrators/quasi_static_solver.h"

namespace softfit {

namespace {
struct NamedIntegrator {
  IntegratorType type;
  const char* name;
};
constexpr NamedIntegrator kIntegrators[] = {
    {IntegratorType::NewmarkTheta, "newmark_theta"},         {IntegratorType::BackwardEuler, "backward_euler"},
    {IntegratorType::BDF2, "bdf2"},                          {IntegratorType::ImplicitMidpoint, "implicit_midpoint"},
    {IntegratorType::NewmarkTrapezoid, "newmark_trapezoid"}, {IntegratorType::QuasiStatic, "quasi_static"},
};
}  // namespace

IntegratorType parseIntegratorType(const std::string& name, const std::string& field) {
  std::string valid;
  for (const auto& i : kIntegrators) {
    if (name == i.name) return i.type;
    valid += std::string(valid.empty() ? "" : ", ") + i.name;
  }
  throw InputError(field + " = \"" + name + "\": unknown integrator (valid: " + valid + ")");
}

std::string integratorTypeName(IntegratorType type) {
  for (const auto& i : kIntegrators)
    if (i.type == type) return i.name;
  return "unknown";
}

PcgPreconditioner parsePcgPreconditioner(const std::string& name, const std::string& field) {
  if (name == "auto") return PcgPreconditioner::Auto;
  if (name == "cholesky") return PcgPreconditioner::Cholesky;
  if (name == "multigrid") return PcgPreconditioner::Multigrid;
  throw InputError(field + " = \"" + name + "\": unknown preconditioner (valid: auto, cholesky, multigrid)");
}

std::string pcgPreconditionerName(PcgPreconditioner preconditioner) {
  switch (preconditioner) {
    case PcgPreconditioner::Auto: return "auto";
    case PcgPreconditioner::Cholesky: return "cholesky";
    case PcgPreconditioner::Multigrid: return "multigrid";
  }
  return "unknown";
}

std::unique_ptr<TimeIntegrator> makeIntegrator(const IntegratorSettings& settings) {
  if (settings.factory) return settings.factory(settings);
  switch (settings.type) {
    case IntegratorType::NewmarkTheta: return std::make_unique<NewmarkThetaIntegrator>(settings);
    case IntegratorType::QuasiStatic: return std::make_unique<QuasiStaticSolver>(settings);
    default: return std::make_unique<IncrementalPotentialIntegrator>(settings);
  }
}

}  // namespace softfit

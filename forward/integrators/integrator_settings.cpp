#include "forward/integrators/integrator_settings.h"

#include "forward/errors.h"

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

bool isIncrementalPotential(IntegratorType type) {
  return type != IntegratorType::NewmarkTheta && type != IntegratorType::QuasiStatic;
}

void requireNewmarkThetaMaterial(MaterialModel m) {
  if (m != MaterialModel::Linear && m != MaterialModel::WarpedCorotated)
    throw InputError("integrator.type = \"newmark_theta\" needs material.model \"linear\" or \"warped_corotated\" (got \"" +
                     materialModelName(m) + "\"); use an incremental-potential integrator for nonlinear materials");
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

StepSolverType parseStepSolverType(const std::string& name, const std::string& field) {
  if (name == "newton") return StepSolverType::Newton;
  if (name == "lbfgs") return StepSolverType::Lbfgs;
  if (name == "pd") return StepSolverType::ProjectiveDynamics;
  throw InputError(field + " = '" + name + "': unknown solver (valid: newton, lbfgs, pd)");
}

std::string stepSolverTypeName(StepSolverType type) {
  switch (type) {
    case StepSolverType::Newton: return "newton";
    case StepSolverType::Lbfgs: return "lbfgs";
    case StepSolverType::ProjectiveDynamics: return "pd";
  }
  return "newton";
}

}  // namespace softfit

#pragma once
// One large-deformation incremental-potential step for the step-solver tests: a clamped
// bar with a twisting, sagging initial velocity, and tightly converging solver settings.
#include <memory>

#include "forward/integrators/step_problem.h"
#include "forward/mesh/procedural_box.h"
#include "forward/nonlinear/step_solver.h"
#include "support/box_model.h"

namespace softfit::testing {

// A clamped bar with a twisting, sagging initial velocity: one large-deformation step.
struct StepScene {
  TetMesh mesh = makeBoxMesh(Vec3::Zero(), Vec3(2.0, 0.5, 0.5), 4, 1, 1);
  std::unique_ptr<PhysicalModel> model;
  State current;
  StepProblem problem;

  StepScene(MaterialModel material, IntegratorType scheme = IntegratorType::BackwardEuler, double alpha2 = 0.0) {
    model = makeBoxModel(mesh, material, 1e5, 0.4, 1000);
    model->gravity = Vec3(0, -9.81, 0);
    model->damping.alpha2 = alpha2;
    clampNodesBelowX(*model, mesh, 1e-9);
    current.x = model->restPositions();
    current.v = VecX::Zero(current.x.size());
    for (int i = 0; i < model->nodeCount(); ++i) {
      const Vec3 X = current.x.segment<3>(3 * i);
      current.v.segment<3>(3 * i) = 4.0 * X.x() * Vec3(0.0, -(X.z() - 0.25), X.y() - 0.25) + Vec3(0, -0.5 * X.x(), 0);
    }
    problem = makeStepProblem(*model, scheme, current, nullptr, 0.1);
  }
};

inline StepSolverSettings tight(StepSolverType type, EigenvalueFilter filter = EigenvalueFilter::Clamp) {
  StepSolverSettings s;
  s.type = type;
  s.maxIterations = type == StepSolverType::Newton ? 100 : 5000;
  s.decrementTolerance = 1e-22;
  s.projection.filter = filter;
  return s;
}

}  // namespace softfit::testing

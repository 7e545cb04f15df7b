#pragma once
// A free cube spinning about a tilted axis with a superposed stretching velocity: the
// scene of the energy-aware integrator tests and bench/energy_*_bench.cpp.
#include <Eigen/Geometry>
#include <memory>

#include "forward/integrators/time_integrator.h"
#include "forward/mesh/procedural_box.h"
#include "support/box_model.h"

namespace softfit::testing {

struct SpinningCube {
  TetMesh mesh;
  std::unique_ptr<PhysicalModel> model;
  State initial;

  SpinningCube(int cells, MaterialModel material, double youngs, double angularSpeed, double stretchRate = 0.5)
      : mesh(makeBoxMesh(Vec3(-0.5, -0.5, -0.5), Vec3(0.5, 0.5, 0.5), cells, cells, cells)) {
    model = makeBoxModel(mesh, material, youngs, 0.3, 1000.0);
    initial.x = model->restPositions();
    initial.v = VecX::Zero(initial.x.size());
    const Vec3 omega = angularSpeed * Vec3(0.3, 0.2, 1.0).normalized();
    for (int i = 0; i < model->nodeCount(); ++i) {
      const Vec3 r = initial.x.segment<3>(3 * i);
      initial.v.segment<3>(3 * i) = omega.cross(r) + stretchRate * Vec3(r.x(), -0.5 * r.y(), -0.5 * r.z());
    }
  }
};

}  // namespace softfit::testing

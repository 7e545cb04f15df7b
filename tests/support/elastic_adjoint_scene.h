#pragma once
// A small twisted, perturbed tet box with per-element Lame parameters and an adjoint
// vector: the scene of the finite-difference checks of ElasticEnergy's adjoint-side
// derivatives (elastic_energy_adjoint_test.cpp, rayleigh_damping_test.cpp).
#include <Eigen/Geometry>
#include <cstdlib>
#include <vector>

#include "forward/energies/elastic_energy.h"
#include "forward/mesh/procedural_box.h"
#include "forward/mesh/tet_mesh.h"

namespace softfit::testing {

struct AdjointScene {
  TetMesh mesh = makeBoxMesh(Vec3(0, 0, 0), Vec3(2, 1, 1), 2, 1, 1);
  VecX rest = mesh.restPositions();
  std::vector<LameParameters> lame;
  VecX x, xFrame, lambda;
  AdjointScene() {
    for (int t = 0; t < mesh.tetCount(); ++t) lame.push_back({1.0 + 0.1 * t, 2.0 + 0.05 * t});
    std::srand(17);
    const Mat3 Q = Eigen::AngleAxisd(0.7, Vec3(1, 2, 0.5).normalized()).toRotationMatrix();
    xFrame = rest;
    for (int i = 0; i < mesh.vertexCount(); ++i) xFrame.segment<3>(3 * i) = Q * rest.segment<3>(3 * i);
    xFrame += 0.08 * VecX::Random(rest.size());
    x = xFrame + 0.05 * VecX::Random(rest.size());
    lambda = VecX::Random(rest.size());
  }
  ElasticEnergy energy(MaterialModel model, const std::vector<LameParameters>& p) const {
    return ElasticEnergy(buildTetElements(mesh), model, p);
  }
};

}  // namespace softfit::testing

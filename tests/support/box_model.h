#pragma once
// Small procedural scenes for integrator tests.
#include <memory>

#include "forward/energies/physical_model.h"
#include "forward/mesh/node_selection.h"
#include "forward/mesh/procedural_box.h"
#include "forward/mesh/tet_mesh.h"

namespace softfit::testing {

inline std::unique_ptr<PhysicalModel> makeBoxModel(const TetMesh& mesh, MaterialModel model, double youngs,
                                                   double poisson, double density) {
  const int m = mesh.tetCount();
  return std::make_unique<PhysicalModel>(mesh.restPositions(), buildTetElements(mesh), model,
                                         std::vector<LameParameters>(m, lameFromYoungPoisson(youngs, poisson)),
                                         VecX::Constant(m, density));
}

// Clamps every node with x <= xmax.
inline void clampNodesBelowX(PhysicalModel& model, const TetMesh& mesh, double xmax) {
  DirichletGroup g;
  g.nodes = nodesInBox(mesh, Vec3(-1e9, -1e9, -1e9), Vec3(xmax, 1e9, 1e9));
  model.dirichlet = DirichletBoundary({g}, model.restPositions());
}

}  // namespace softfit::testing

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

// The cube mesh pushed radially onto a ball: a node at offset r from `center` (the
// cube's centre) moves to r * |r|_inf / |r|_2, so the cube's surface lands on the
// sphere through its face centres (a rounded body with the cube's cells and node
// count). The cube must be a cube (equal sides) centred at `center`.
inline TetMesh ballFromBox(TetMesh mesh, const Vec3& center) {
  for (int i = 0; i < mesh.vertexCount(); ++i) {
    const Vec3 r = mesh.vertices.row(i).transpose() - center;
    if (r.norm() == 0.0) continue;
    mesh.vertices.row(i) = (center + r * (r.cwiseAbs().maxCoeff() / r.norm())).transpose();
  }
  validateTetMesh(mesh);
  return mesh;
}

// Clamps every node with x <= xmax.
inline void clampNodesBelowX(PhysicalModel& model, const TetMesh& mesh, double xmax) {
  DirichletGroup g;
  g.nodes = nodesInBox(mesh, Vec3(-1e9, -1e9, -1e9), Vec3(xmax, 1e9, 1e9));
  model.dirichlet = DirichletBoundary({g}, model.restPositions());
}

}  // namespace softfit::testing

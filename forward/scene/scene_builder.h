#pragma once
// Turns a SceneDescription into a simulation-ready PhysicalModel: reads or generates the
// mesh, assigns per-element materials, selects boundary nodes and sets the initial state.
#include <memory>

#include "forward/integrators/simulator.h"
#include "forward/mesh/tet_mesh.h"
#include "forward/scene/scene_description.h"

namespace softfit {

using TriangleMatrix = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;

struct BuiltScene {
  TetMesh mesh;              // rest mesh (after scale / translate)
  TriangleMatrix surface;    // boundary triangles, outward
  std::unique_ptr<PhysicalModel> model;
  State initial;
};

// Throws InputError prefixed with scene.source for every problem (missing mesh file,
// invalid mesh, selections that pick no node, node indices out of range, ...).
BuiltScene buildScene(const SceneDescription& scene);

// Nodes picked by a selector (sorted, unique); InputError naming `field` when it picks
// none or an index is out of range.
std::vector<int> selectNodes(const TetMesh& mesh, const NodeSelector& selector, const std::string& field);

}  // namespace softfit

#pragma once
// Turns a SceneDescription into a simulation-ready PhysicalModel: reads or generates the
// tet mesh, or samples the SDF and builds its cut-cell grid (grid/), assigns
// per-element materials, selects boundary nodes and sets the initial state.
#include <memory>
#include <string>

#include "forward/integrators/initial_motion.h"
#include "forward/integrators/simulator.h"
#include "forward/registry/simulate.h"
#include "forward/io/vtu_writer.h"
#include "forward/mesh/tet_mesh.h"
#include "scene/scene_description.h"
#include "grid/cut_cell_grid.h"
#include "grid/embedded_surface.h"

namespace softfit {


struct BuiltScene {
  TetMesh mesh;              // tet scenes: rest mesh (after scale / translate); empty for grids
  TriangleMatrix surface;    // tet scenes: boundary triangles (node indices), outward
  std::shared_ptr<const CutCellGrid> grid;  // grid scenes: the active cut-cell grid
  VtuCells cells;            // output cells over the model's nodes (tets or hexes)
  EmbeddedSurface embeddedSurface;  // output surface: tet boundary faces or the grid's embedded surface
  std::unique_ptr<PhysicalModel> model;
  State initial;
  // What the builder decided, for the parameter space and reports:
  std::vector<int> elementRegion;  // per element: 0 = in no material region, k = material.regions[k-1]
  VecX youngs, poisson;            // per element: E and nu as the scene gives them (before Lame)
  InitialMotion motion;            // the initial rigid motion and its rotation centre

  bool isGrid() const { return grid != nullptr; }
  // One line for logs: "N nodes, M tets" or "N nodes, M hex cells (P cut), h = ...".
  std::string summary() const;
};

// The scene's trajectory: the built model, the scene's integrator settings, dt, step
// count and the built initial state (the model must outlive the setup).
TrajectorySetup trajectorySetup(const SceneDescription& description, BuiltScene& scene);

// Throws InputError prefixed with scene.source for every problem (missing mesh file,
// invalid mesh, empty SDF, selections that pick no node, node indices out of range, ...).
BuiltScene buildScene(const SceneDescription& scene);

// Nodes picked by a selector among the given rest positions (sorted, unique); boxes are
// widened by 1e-9 times the positions' bounding-box diagonal. InputError naming `field`
// when it picks none or an index is out of range.
std::vector<int> selectNodes(const VecX& restPositions, const NodeSelector& selector, const std::string& field);
std::vector<int> selectNodes(const TetMesh& mesh, const NodeSelector& selector, const std::string& field);

}  // namespace softfit

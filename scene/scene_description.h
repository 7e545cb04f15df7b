#pragma once
// A scene as typed settings: geometry, material, loads, boundary conditions, integrator,
// time stepping and output. Read from JSON by loadScene (scene_loader.h) or built in
// code; turned into a PhysicalModel by buildScene (scene_builder.h).
#include <optional>
#include <string>
#include <vector>

#include "forward/energies/physical_model.h"
#include "forward/integrators/time_integrator.h"
#include "grid/cut_cell_quadrature.h"
#include "grid/embedded_surface.h"
#include "grid/sdf_shape.h"

namespace softfit {

struct BoxRegion {
  Vec3 min = Vec3::Zero();
  Vec3 max = Vec3::Zero();
};

// Nodes chosen by an explicit 0-based index list and/or an axis-aligned box.
struct NodeSelector {
  std::optional<BoxRegion> box;
  std::vector<int> nodes;
};

struct MeshGeometry {
  std::string file;  // resolved path (.mesh, .msh, .node/.ele, .obj, .stl)
  double scale = 1.0;
  Vec3 translate = Vec3::Zero();
  double maxTetVolume = 0.0;  // surface meshing only; 0 = TetGen default
};

struct BoxGeometry {
  BoxRegion extent{Vec3::Zero(), Vec3::Ones()};
  Eigen::Vector3i cells = Eigen::Vector3i::Ones();
};

// The ground's contact points on a grid body (grid/grid_contact_points.h): the thesis'
// lattice-edge surface crossings, or the vertices of the embedded output surface. The
// lattice-edge set's bottom face ends in a chamfer a cell wide, so the ground's push on
// an object depends on where its faces fall on the lattice (a resting 0.3 m box, placed
// five ways on a 37.5 mm lattice: 19.8 to 31.8 N; raised by 0.6 mm it lands 5 mm
// differently); the surface set's vertices sample every face (28.2 to 30.4 N).
enum class GridContactPoints { LatticeEdges, Surface };

// An object given by a signed distance field, simulated on a cut-cell hexahedral grid
// (grid/): nodes at integer multiples of cellSize, |phi| < snapFraction * cellSize
// (or, when set, |phi| < snapDistance in world units: the thesis convention) snapped to
// 0, cells near the surface sampled refinement^3 times for the quadrature.
struct SdfGeometry {
  SdfShape shape;
  double cellSize = 0.0;
  double snapFraction = 0.01;
  std::optional<double> snapDistance;
  int refinement = 3;
  CutCellQuadratureOptions quadrature;  // partial-cell rule and volume-fraction floor
  SurfaceResolution surface = SurfaceResolution::Nodes;  // output surface (without surfaceMesh)
  GridContactPoints contactPoints = GridContactPoints::LatticeEdges;
  // A triangle surface (OBJ) embedded in the grid instead of the marching-tets surface:
  // output, fit cost and surface contact points (grid/embedded_surface_mesh.h).
  std::optional<std::string> surfaceMesh;
};

struct MaterialRegion {
  BoxRegion box;  // elements whose centroid lies inside
  std::optional<double> youngs, poisson, density;
};

struct MaterialSettings {
  MaterialModel model = MaterialModel::Corotated;
  double youngs = 1e5;
  double poisson = 0.3;
  double density = 1000.0;
  std::vector<MaterialRegion> regions;
};

struct DirichletSettings {
  NodeSelector select;
  DirichletGroup motion;  // nodes filled in by the builder
};

struct AttachmentSettings {
  NodeSelector select;
  double stiffness = 0.0;
  Vec3 offset = Vec3::Zero();  // target = rest position + offset
};

struct InitialSettings {
  Vec3 velocity = Vec3::Zero();
  Vec3 angularVelocity = Vec3::Zero();
  std::optional<Vec3> center;  // of the angular velocity; default: centre of mass
  Vec3 translation = Vec3::Zero();
};

struct OutputSettings {
  int every = 1;          // write every k-th frame
  bool vtu = true;        // .pvd + .vtu per written frame
  bool surfaceObj = true; // final surface as OBJ
  // Per written frame also the deformed surface as .vtu (+ surface.pvd); unset: on for
  // grid scenes (the embedded surface), off for tet scenes.
  std::optional<bool> surfaceVtu;
};

struct SceneDescription {
  std::string source = "<scene>";  // file name for messages
  std::optional<MeshGeometry> mesh;
  std::optional<BoxGeometry> box;
  std::optional<SdfGeometry> sdf;  // exactly one of mesh, box, sdf
  MaterialSettings material;
  Vec3 gravity = Vec3(0, -9.81, 0);
  RayleighDamping damping;
  std::optional<GroundPlane> ground;
  std::vector<DirichletSettings> dirichlet;
  std::vector<AttachmentSettings> attachments;
  InitialSettings initial;
  IntegratorSettings integrator;
  double dt = 0.01;
  int steps = 100;
  OutputSettings output;
};

}  // namespace softfit

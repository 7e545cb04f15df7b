#pragma once
// Tetrahedralizing a closed triangle surface with the TetGen program (TetGen 1.5).
#include <string>

#include "forward/mesh/tet_mesh.h"
#include "forward/mesh/triangle_surface.h"

namespace softfit {

struct SurfaceMeshingOptions {
  // TetGen -q: maximum radius-edge ratio of the tets (quality refinement). <= 0 turns
  // quality refinement off (only the boundary-conforming Delaunay mesh, fewest tets).
  double maxRadiusEdgeRatio = 1.414;
  // TetGen -q.../angle: minimum dihedral angle in degrees; <= 0 keeps TetGen's default.
  // Only used when maxRadiusEdgeRatio > 0.
  double minDihedralAngle = 0.0;
  // TetGen -a: maximum tet volume (in the surface's units cubed); <= 0 = unbounded.
  double maxTetVolume = 0.0;
  // When TetGen finds intersecting triangles, move the vertices of those triangles to
  // the centroid of their neighbours (a local smoothing step) and retry, at most this
  // many times; 0 reports self-intersections as an error instead.
  int selfIntersectionRepairIterations = 10;
  // The repair gives up (and reports the self-intersection) once it has changed the
  // enclosed volume by more than this fraction: it is meant for small local folds, not
  // for surfaces that genuinely overlap.
  double maxRepairVolumeChange = 1e-3;
  // TetGen program; empty = the one found when softfit was configured.
  std::string tetgenExecutable;
};

// Cleans the surface (cleanSurface), checks it is closed (checkClosedSurface), writes it
// as a .smesh into a fresh temporary directory, runs TetGen -d to find self-intersections
// (smoothing them away as the options allow), then TetGen -p with the options, reads the
// .1.node/.1.ele and removes the directory. Returns a validated mesh without unused
// vertices, with .source = surface.source. Deterministic for a given input and TetGen.
// Throws InputError naming surface.source when the surface is not closed, intersects
// itself beyond repair, TetGen cannot be run, or TetGen fails (quoting its output).
TetMesh tetrahedralizeSurface(const TriangleSurface& surface, const SurfaceMeshingOptions& options = {});

// The TetGen program `options` selects (options.tetgenExecutable, or the configured one).
std::string tetgenExecutable(const SurfaceMeshingOptions& options = {});
// Whether that program exists and is executable (searching PATH for a bare name).
bool tetgenAvailable(const SurfaceMeshingOptions& options = {});

// The TetGen command-line switches for the meshing run, e.g. "-pzQFq1.414a0.01".
std::string tetgenMeshingSwitches(const SurfaceMeshingOptions& options);

}  // namespace softfit

#pragma once
// A synthetic face-like model with known muscle geometry and activations, for tests,
// benchmarks and `softfit face generate`: a half-ellipsoid shell (the front of a head,
// facing +z, y up) made of a structured tet grid mapped through
//   (u, v, w) -> (theta, phi, depth):  x = (a_x + w T) cos(phi) sin(theta),
//                                       y = (a_y + w T) sin(phi),
//                                       z = (a_z + w T) cos(phi) cos(theta),
// inner layer (w = 0) attached to the skull above the mouth and to the mandible below it,
// and seven muscles given as closed surfaces in the same chart: frontalis (two sheets),
// zygomaticus major (two slanted strips), orbicularis oris (ring round the mouth) and
// orbicularis oculi (two rings). The truth S comes from the muscle surfaces; the model's
// S0 from the same surfaces shifted by `muscleShift` (the "perturbed" geometry a fit
// starts from). Targets are equilibria under known fibre contractions and jaw poses.
#include <string>
#include <vector>

#include "face/expression_objective.h"
#include "forward/mesh/triangle_surface.h"

namespace softfit::face {

struct SyntheticFaceOptions {
  int cellsAround = 10;   // theta
  int cellsUp = 8;        // phi
  int cellsThrough = 2;   // depth
  double muscleRadius = 0.025;        // m: allowed muscles per tet
  double muscleShift = 0.015;         // m (approx.): S0 muscles displaced from the truth
  int targetCount = 6;
  unsigned seed = 1;
  FaceMaterial material{8e3, 0.45, 1000.0};
};

struct SyntheticFace {
  FaceModel model;                             // geometry = S0 (shifted muscles)
  MuscleGeometry trueGeometry;                 // same allowed entries as model.geometry
  std::vector<TriangleSurface> muscleSurfaces; // the shifted (S0) muscle surfaces
  std::vector<TriangleSurface> trueMuscleSurfaces;
  std::vector<Vec3> fibreDirections;           // per muscle, world frame
  std::vector<Expression> trueExpressions;     // per target
  std::vector<FaceTarget> targets;             // outer-surface nodes at the true equilibria
  std::vector<int> outerNodes;                 // skin nodes (w = 1)
  double muscleRadius = 0.0;                   // the allowed radius used for S
};

SyntheticFace makeSyntheticFace(const SyntheticFaceOptions& options);

// The k-th synthetic expression (deterministic): contractions of a few muscles and a jaw
// pose.
Expression syntheticExpression(const SyntheticFace& face, int k, unsigned seed);

// Equilibrium of `expression` under `geometry`, returned as a target on `nodes`.
FaceTarget makeTarget(const FaceModel& model, const MuscleGeometry& geometry, const Expression& expression,
                      const std::vector<int>& nodes, const std::string& name, VecX* positions = nullptr);

// The non-physical artifact of the thesis' Fig. 4.8 experiment: the `count` target points
// nearest to `center` move `displacement` outward (along their direction from the
// origin). Returns their indices into the target.
std::vector<int> injectBumpArtifact(FaceTarget& target, const Vec3& center, int count, double displacement);
// Mean distance between the artifact points and their model nodes at positions x.
double artifactError(const FaceTarget& target, const std::vector<int>& artifact, const VecX& x);

}  // namespace softfit::face

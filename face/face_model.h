#pragma once
// A face model: tet mesh with per-tet Lame parameters and lumped mass, bone attachments
// (skull nodes fixed at rest, mandible nodes moved by the 5-DoF jaw), external forces,
// the muscles and the muscle geometry matrix S, and an optional per-tet plastic scale
// (fat/thin: F_eff = F Fp^{-1}, Fp = f_i I).
#include <string>
#include <vector>

#include "face/jaw_joint.h"
#include "face/muscle_geometry.h"
#include "forward/element.h"
#include "forward/materials/material.h"
#include "forward/mesh/tet_mesh.h"
#include "forward/solvers/block_sparse_pattern.h"
#include "forward/solvers/dirichlet_elimination.h"

namespace softfit::face {

struct FaceMaterial {
  double youngsModulus = 1e4;  // Pa
  double poissonRatio = 0.45;
  double density = 1000.0;     // kg / m^3
};

struct FaceModel {
  TetMesh mesh;
  std::vector<Element> elements;        // one per tet
  std::vector<LameParameters> lame;     // per tet
  VecX mass;                            // lumped, per dof
  Vec3 gravity = Vec3::Zero();
  VecX constantForce;                   // per dof (wind, ...); empty = none
  std::vector<int> skullNodes;          // fixed at rest
  std::vector<int> jawNodes;            // follow the jaw pose
  JawJoint jaw;
  std::vector<std::string> muscleNames;
  MuscleGeometry geometry;
  VecX plasticScale;                    // per tet f_i; empty = 1
  BlockSparsePattern pattern;
  TriangleMatrix surfaceTriangles;      // boundary faces
  std::vector<int> surfaceNodes;        // nodes on the boundary, ascending
  double size = 1.0;                    // bounding-box diagonal of the rest mesh

  int nodeCount() const { return mesh.vertexCount(); }
  int tetCount() const { return mesh.tetCount(); }
  int muscleCount() const { return static_cast<int>(muscleNames.size()); }
  // Attached dofs (skull and jaw nodes).
  DofMask attachedDofs() const;
  // Writes the attached positions for a jaw pose into x (other entries kept).
  void applyAttachments(const JawPose& pose, VecX& x) const;
  // External force per dof (gravity m g plus the constant force).
  VecX externalForce() const;
};

// Builds elements, Lame parameters, mass, pattern and surface from a validated mesh.
// Bone node sets, muscles and geometry are set by the caller. Throws InputError for a
// bad material or a node index out of range (checked by validateFaceModel).
FaceModel makeFaceModel(TetMesh mesh, const FaceMaterial& material);
void validateFaceModel(const FaceModel& model, const std::string& source);

// Allowed muscles per tet (centroid within `radius` of the muscle volume, or inside it)
// and containment-initialized S (tets inside k muscles get 1/k on each, the rest
// passive), from per-muscle inside tests and distances at the tet centroids.
// distance[j][i]: distance of tet i's centroid to muscle j (0 inside).
MuscleGeometry geometryFromDistances(const std::vector<VecX>& distance, double radius);

std::vector<Vec3> tetCentroids(const TetMesh& mesh);

}  // namespace softfit::face

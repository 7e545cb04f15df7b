#pragma once
// A tetrahedral mesh: rest positions and 4-node connectivity (0-based).
#include <string>
#include <vector>

#include "forward/element.h"

namespace softfit {

struct TetMesh {
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> vertices;  // N x 3
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> tets;        // M x 4, 0-based
  std::string source = "<procedural>";  // file it was read from, for error messages

  int vertexCount() const { return static_cast<int>(vertices.rows()); }
  int tetCount() const { return static_cast<int>(tets.rows()); }
  VecX restPositions() const;  // flat 3N vector
};

// Signed volume of tet t (positive when (b-a, c-a, d-a) is right-handed).
double signedTetVolume(const TetMesh& mesh, int t);

// Throws InputError naming mesh.source when the mesh is empty, has out-of-range or
// repeated indices, non-finite coordinates, or inverted / zero-volume tets.
void validateTetMesh(const TetMesh& mesh);

// One linear-tet element per tet: 1 quadrature point, weight = rest volume.
std::vector<Element> buildTetElements(const TetMesh& mesh);

// Boundary triangles (faces used by exactly one tet), oriented outward.
Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor> boundaryFaces(const TetMesh& mesh);

}  // namespace softfit

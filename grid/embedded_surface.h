#pragma once
// A triangle surface whose vertices are fixed linear combinations of simulation nodes,
// p_v = sum_a W(v, a) x_a: the boundary faces of a tet mesh (W = identity) or the
// surface of a cut-cell grid's object, each vertex embedded in a cell with trilinear
// weights so it follows the grid's displacement field.
#include <Eigen/SparseCore>

#include <string>

#include "forward/types.h"

namespace softfit {

class CutCellGrid;

using SurfaceTriangles = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;  // 0-based, outward
using SurfacePoints = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;

struct EmbeddedSurface {
  Eigen::SparseMatrix<double, Eigen::RowMajor, int> weights;  // vertices x nodes
  SurfaceTriangles triangles;
  bool identity = false;  // weights = I: positions are the node positions themselves

  int vertexCount() const { return static_cast<int>(weights.rows()); }
  int triangleCount() const { return static_cast<int>(triangles.rows()); }
  // Vertex positions for flat node positions x (3 * nodes).
  SurfacePoints positions(const VecX& x) const;
  VecX flatPositions(const VecX& x) const;
  // Adds W^T gy to gx: the gradient w.r.t. the nodes (3 * nodes) of one w.r.t. the flat
  // vertex positions gy (3 * vertices).
  void addNodeGradient(const VecX& gy, VecX& gx) const;
  // InputError prefixed with `context` when there are no triangles or a triangle index is
  // negative or (embeddings) beyond the vertices.
  void validateTriangles(const std::string& context) const;
  // InputError when an embedding's node count differs from that of the state `x`.
  void checkNodeCount(const VecX& x) const;
};

// Surface made of node positions directly (a tet mesh's boundary faces).
EmbeddedSurface identityEmbedding(int nodeCount, SurfaceTriangles triangles);

// The zero level set of the grid's reference SDF (its piecewise-linear interpolant on the
// Kuhn tets of the active (sub-)cells, "marching tets"): a closed, outward-oriented
// triangle surface. Vertices are shared between neighbouring tets and cells; each is
// embedded in one cell with its trilinear weights.
enum class SurfaceResolution {
  Samples,  // all reference samples (refined cells): bounds exactly the volume the
            // cut-cell quadrature integrates; refinement^2 times more triangles
  Nodes,    // the node values only (thesis level, one refinement level per cell)
};
EmbeddedSurface extractEmbeddedSurface(const CutCellGrid& grid, SurfaceResolution resolution = SurfaceResolution::Samples);

}  // namespace softfit

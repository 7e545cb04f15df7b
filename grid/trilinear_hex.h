#pragma once
// The unit hexahedral cell [0,1]^3: corner numbering (VTK hexahedron order), its 12
// edges, the 6 Kuhn tets (all sharing the diagonal corner 0 - corner 6, so neighbouring
// cells split their common faces alike) and the trilinear shape functions.
#include "forward/types.h"

namespace softfit {

// Corner c sits at kHexCorner[c] (x, y, z) in {0,1}^3:
// (0,0,0) (1,0,0) (1,1,0) (0,1,0) (0,0,1) (1,0,1) (1,1,1) (0,1,1).
constexpr int kHexCorner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                  {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};

// Edges as corner pairs, the lower corner first (x-edges, y-edges, z-edges).
constexpr int kHexEdges[12][2] = {{0, 1}, {3, 2}, {4, 5}, {7, 6}, {0, 3}, {1, 2},
                                  {4, 7}, {5, 6}, {0, 4}, {1, 5}, {3, 7}, {2, 6}};

// Kuhn (Freudenthal) split: one tet per order in which the coordinates step from 0 to 1.
constexpr int kKuhnTets[6][4] = {{0, 1, 2, 6}, {0, 1, 5, 6}, {0, 3, 2, 6},
                                 {0, 3, 7, 6}, {0, 4, 5, 6}, {0, 4, 7, 6}};

inline Vec3 hexCorner(int c) { return Vec3(kHexCorner[c][0], kHexCorner[c][1], kHexCorner[c][2]); }

using HexShapeValues = Eigen::Matrix<double, 8, 1>;
using HexShapeGradients = Eigen::Matrix<double, 8, 3>;

// N_c(xi) = prod_a (corner_a ? xi_a : 1 - xi_a) for xi in unit-cell coordinates.
HexShapeValues trilinearShapeValues(const Vec3& xi);
// dN_c / dxi (multiply by 1 / h for dN/dX on a cell of size h).
HexShapeGradients trilinearShapeGradients(const Vec3& xi);

}  // namespace softfit

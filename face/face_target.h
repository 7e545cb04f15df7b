#pragma once
// A target expression: positions for a subset of mesh nodes (vertex correspondences),
// and the data term ||M x - N t||^2, normalized by the number of correspondences and the
// squared model size so that its weight against the regularizers does not depend on the
// units or the resolution:  L(x) = 1 / (n size^2) sum_k ||x_{node_k} - t_k||^2.
#include <string>
#include <vector>

#include "forward/types.h"

namespace softfit::face {

struct FaceTarget {
  std::string name;
  std::vector<int> nodes;  // mesh node of each correspondence
  PointMatrix points;      // target position of each correspondence (rows match nodes)
  // Per-correspondence weights (empty = all 1); e.g. 0 to hold out a region.
  VecX weights;
};

// L(x) as above; adds dL/dx into *gradient when given (sized 3N).
double targetLoss(const FaceTarget& target, const VecX& x, double modelSize, VecX* gradient = nullptr);
// Per-correspondence distances ||x_node - t||.
VecX correspondenceErrors(const FaceTarget& target, const VecX& x);
// Per-node error (0 where a node has no correspondence), for VTU point data.
VecX nodeErrors(const FaceTarget& target, const VecX& x, int nodeCount);

}  // namespace softfit::face

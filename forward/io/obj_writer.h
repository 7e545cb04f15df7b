#pragma once
// Wavefront OBJ output of a triangle surface.
#include <string>

#include "forward/types.h"

namespace softfit {

// Writes "v x y z" lines (full precision) and "f a b c" lines (1-based) for 0-based
// `triangles`. Deterministic. Throws InputError naming `path` when it cannot be written,
// the positions are not a multiple of 3 or non-finite, or a triangle index is out of range.
void writeObj(const std::string& path, const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>& vertices,
              const Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>& triangles);
void writeObj(const std::string& path, const VecX& positions,
              const Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>& triangles);

}  // namespace softfit

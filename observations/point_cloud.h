#pragma once
// A point cloud: N observed points in world coordinates (double precision), the common
// currency of the readers, the virtual cameras, captures and the point-to-surface cost.
#include <string>
#include <vector>

#include "forward/types.h"

namespace softfit {


struct PointCloud {
  PointMatrix points;  // N x 3, world coordinates

  int size() const { return static_cast<int>(points.rows()); }
  bool empty() const { return points.rows() == 0; }
  Vec3 point(int i) const { return points.row(i).transpose(); }
};

// Appends `more`'s points to `into` (in order).
void appendCloud(PointCloud& into, const PointCloud& more);

// Throws InputError "<context>: point i has a non-finite coordinate (...)" for the first
// NaN / infinite coordinate.
void checkFinitePoints(const PointCloud& cloud, const std::string& context);

}  // namespace softfit

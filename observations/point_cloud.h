#pragma once
// A point cloud: N observed points in world coordinates (double precision), the common
// currency of the readers, the virtual cameras, captures and the point-to-surface cost.
#include <string>
#include <vector>

#include "forward/types.h"

namespace softfit {


struct PointCloud {
  PointMatrix points;  // N x 3, world coordinates
  // Optional, N entries or none: the pixel each point was seen at, over all cameras of
  // its frame (camera c's pixel (u, v) is sum_{c' < c} w h + v w + u, as in
  // RenderedSample::pixel). Set by the virtual cameras (renderCloud, renderCapture);
  // empty when unknown (files, filtered clouds).
  std::vector<long long> pixels;

  int size() const { return static_cast<int>(points.rows()); }
  bool empty() const { return points.rows() == 0; }
  Vec3 point(int i) const { return points.row(i).transpose(); }
};

// Appends `more`'s points to `into` (in order). Pixel ids are kept when both clouds have
// them (or `into` is empty), `more`'s shifted by pixelOffset; otherwise they are dropped.
void appendCloud(PointCloud& into, const PointCloud& more, long long pixelOffset = 0);

// Throws InputError "<context>: point i has a non-finite coordinate (...)" for the first
// NaN / infinite coordinate.
void checkFinitePoints(const PointCloud& cloud, const std::string& context);

}  // namespace softfit

#pragma once
// Binary little-endian PLY of points with a per-point noise estimate:
//   element vertex N; property double x, y, z, sigma
// observations/ply_io.h reads x, y, z and skips `sigma`, so `softfit fit` loads these
// clouds unchanged; `sigma` is the depth noise (metres) of the point's measurement
// (reconstruct/depth_noise.h).
#include <string>
#include <vector>

#include "observations/point_cloud.h"

namespace softfit {

// InputError naming `path` when it cannot be written or the sizes differ.
void writePlyWithSigma(const std::string& path, const PointCloud& cloud, const std::vector<double>& sigmas);

}  // namespace softfit

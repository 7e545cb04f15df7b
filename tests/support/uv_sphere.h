// A UV sphere of radius 1 about the origin for tests: n latitude bands, 2n longitudes,
// outward-oriented triangles (north pole first, south pole last).
#pragma once

#include <cmath>
#include <vector>

#include "forward/types.h"

namespace softfit::testing {

struct UvSphere {
  std::vector<Vec3> vertices;
  std::vector<Eigen::Vector3i> triangles;
};

inline UvSphere uvSphere(int n) {
  UvSphere s;
  std::vector<Vec3>& v = s.vertices;
  v.emplace_back(0, 0, 1);
  for (int i = 1; i < n; ++i)
    for (int j = 0; j < 2 * n; ++j) {
      const double theta = M_PI * i / n, phi = M_PI * j / n;
      v.emplace_back(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
    }
  v.emplace_back(0, 0, -1);
  const int south = static_cast<int>(v.size()) - 1;
  const auto ring = [n](int i, int j) { return 1 + (i - 1) * 2 * n + (j % (2 * n)); };
  for (int j = 0; j < 2 * n; ++j) {
    s.triangles.emplace_back(0, ring(1, j), ring(1, j + 1));
    s.triangles.emplace_back(south, ring(n - 1, j + 1), ring(n - 1, j));
    for (int i = 1; i + 1 < n; ++i) {
      s.triangles.emplace_back(ring(i, j), ring(i + 1, j), ring(i + 1, j + 1));
      s.triangles.emplace_back(ring(i, j), ring(i + 1, j + 1), ring(i, j + 1));
    }
  }
  return s;
}

}  // namespace softfit::testing

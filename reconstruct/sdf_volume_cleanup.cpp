#include "reconstruct/sdf_volume_cleanup.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace softfit {

int keepLargestInsideRegion(SdfVolume& volume, double fill) {
  const int nx = volume.dims[0], ny = volume.dims[1], nz = volume.dims[2];
  const long long n = volume.sampleCount();
  std::vector<int> region(n, -1);
  std::vector<long long> stack;
  int best = -1, bestSize = 0, regions = 0;
  for (long long s = 0; s < n; ++s) {
    if (volume.values[s] >= 0.0 || region[s] >= 0) continue;
    const int id = regions++;
    int size = 0;
    stack.assign(1, s);
    region[s] = id;
    while (!stack.empty()) {
      const long long c = stack.back();
      stack.pop_back();
      ++size;
      const int i = static_cast<int>(c % nx), j = static_cast<int>((c / nx) % ny), k = static_cast<int>(c / (static_cast<long long>(nx) * ny));
      const int offsets[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
      for (const auto& o : offsets) {
        const int a = i + o[0], b = j + o[1], d = k + o[2];
        if (a < 0 || b < 0 || d < 0 || a >= nx || b >= ny || d >= nz) continue;
        const long long q = volume.index(a, b, d);
        if (volume.values[q] < 0.0 && region[q] < 0) {
          region[q] = id;
          stack.push_back(q);
        }
      }
    }
    if (size > bestSize) {
      bestSize = size;
      best = id;
    }
  }
  for (long long s = 0; s < n; ++s)
    if (region[s] >= 0 && region[s] != best) volume.values[s] = fill;
  return bestSize;
}

void extendDistances(SdfVolume& volume, double band) {
  const int nx = volume.dims[0], ny = volume.dims[1], nz = volume.dims[2];
  const long long n = volume.sampleCount();
  std::vector<double> dist(n);
  for (long long s = 0; s < n; ++s) {
    const double a = std::abs(volume.values[s]);
    dist[s] = a < band ? a : INFINITY;
  }
  const Vec3 h = volume.spacing;
  auto pass = [&](int sign) {
    const int i0 = sign > 0 ? 0 : nx - 1, j0 = sign > 0 ? 0 : ny - 1, k0 = sign > 0 ? 0 : nz - 1;
    for (int k = k0; k >= 0 && k < nz; k += sign)
      for (int j = j0; j >= 0 && j < ny; j += sign)
        for (int i = i0; i >= 0 && i < nx; i += sign) {
          double& d = dist[volume.index(i, j, k)];
          // The 13 neighbours already visited in this raster order.
          for (int dk = -1; dk <= 0; ++dk)
            for (int dj = -1; dj <= 1; ++dj)
              for (int di = -1; di <= 1; ++di) {
                if (dk == 0 && (dj > 0 || (dj == 0 && di >= 0))) continue;
                const int a = i + sign * di, b = j + sign * dj, c = k + sign * dk;
                if (a < 0 || b < 0 || c < 0 || a >= nx || b >= ny || c >= nz) continue;
                const double step = Vec3(di * h[0], dj * h[1], dk * h[2]).norm();
                d = std::min(d, dist[volume.index(a, b, c)] + step);
              }
        }
  };
  pass(1);
  pass(-1);
  for (long long s = 0; s < n; ++s) {
    if (std::abs(volume.values[s]) < band) continue;
    const double d = std::isfinite(dist[s]) ? std::max(dist[s], band) : band;
    volume.values[s] = volume.values[s] < 0.0 ? -d : d;
  }
}

void extrudeIntoGroundBand(SdfVolume& volume, const Vec3& groundNormal, double groundOffset, double band) {
  if (!(band > 0.0)) return;
  const double h = volume.spacing[0];
  const std::vector<double> in = volume.values;
  // Nearest sample to y, or -1 outside the volume.
  const auto nearest = [&](const Vec3& y) -> long long {
    const Vec3 g = (y - volume.origin).cwiseQuotient(volume.spacing);
    const int a = static_cast<int>(std::lround(g[0])), b = static_cast<int>(std::lround(g[1])),
              c = static_cast<int>(std::lround(g[2]));
    if (a < 0 || b < 0 || c < 0 || a >= volume.dims[0] || b >= volume.dims[1] || c >= volume.dims[2]) return -1;
    return volume.index(a, b, c);
  };
  const auto position = [&](long long s) {
    const long long nx = volume.dims[0], ny = volume.dims[1];
    return volume.samplePosition(static_cast<int>(s % nx), static_cast<int>((s / nx) % ny), static_cast<int>(s / (nx * ny)));
  };
  for (int k = 0; k < volume.dims[2]; ++k)
    for (int j = 0; j < volume.dims[1]; ++j)
      for (int i = 0; i < volume.dims[0]; ++i) {
        const Vec3 x = volume.samplePosition(i, j, k);
        const double height = groundNormal.dot(x) + groundOffset;
        if (height < 0.0 || height >= band) continue;
        const long long a = nearest(x + (band + 0.5 * h - height) * groundNormal);
        if (a < 0) continue;
        const Vec3 pa = position(a);
        const long long b = nearest(pa + 2.0 * h * groundNormal);
        double phi = in[a];
        const double rise = b >= 0 ? groundNormal.dot(position(b) - pa) : 0.0;
        if (rise > 0.5 * h)  // continue the side's slope down where the body narrows towards the floor
          phi += std::max(0.0, (in[a] - in[b]) / rise) * (groundNormal.dot(pa) + groundOffset - height);
        volume.values[volume.index(i, j, k)] = phi;
      }
}

void clipAtGround(SdfVolume& volume, const Vec3& groundNormal, double groundOffset) {
  for (int k = 0; k < volume.dims[2]; ++k)
    for (int j = 0; j < volume.dims[1]; ++j)
      for (int i = 0; i < volume.dims[0]; ++i) {
        double& phi = volume.values[volume.index(i, j, k)];
        phi = std::max(phi, -(groundNormal.dot(volume.samplePosition(i, j, k)) + groundOffset));
      }
}

}  // namespace softfit

#include "observations/rendered_mixture_cost.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <utility>

#include "forward/errors.h"
#include "forward/math/parallel_ranges.h"

namespace softfit {

namespace {

// Points binned into cubes of side `cell` (or more): visits the points of the
// (2 reach + 1)^3 cubes around a query (a superset of those within reach * cell), in a
// fixed order.
class RadiusGrid {
 public:
  RadiusGrid(const std::vector<Vec3>& points, double cell, int reach) : cell_(cell), reach_(reach) {
    if (points.empty()) return;
    origin_ = points[0];
    Vec3 hi = points[0];
    for (const Vec3& p : points) {
      origin_ = origin_.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
    // At most 1e6 cubes per axis (the keys stay below 2^63); larger cubes still cover
    // reach * cell.
    cell_ = std::max(cell_, (hi - origin_).maxCoeff() * 1e-6);
    for (int a = 0; a < 3; ++a) size_[a] = static_cast<long long>(std::floor((hi[a] - origin_[a]) / cell_)) + 1;
    std::vector<std::pair<long long, int>> keyed(points.size());
    for (size_t i = 0; i < points.size(); ++i) keyed[i] = {key(cellOf(points[i])), static_cast<int>(i)};
    std::sort(keyed.begin(), keyed.end());
    order_.resize(points.size());
    for (size_t i = 0; i < keyed.size(); ++i) {
      order_[i] = keyed[i].second;
      auto [it, inserted] = ranges_.try_emplace(keyed[i].first, static_cast<int>(i), static_cast<int>(i) + 1);
      if (!inserted) it->second.second = static_cast<int>(i) + 1;
    }
  }

  template <typename Visit>
  void forEachNear(const Vec3& q, const Visit& visit) const {
    if (order_.empty()) return;
    const Eigen::Array<long long, 3, 1> c = cellOf(q);
    for (long long x = c[0] - reach_; x <= c[0] + reach_; ++x) {
      if (x < 0 || x >= size_[0]) continue;
      for (long long y = c[1] - reach_; y <= c[1] + reach_; ++y) {
        if (y < 0 || y >= size_[1]) continue;
        for (long long z = c[2] - reach_; z <= c[2] + reach_; ++z) {
          if (z < 0 || z >= size_[2]) continue;
          const auto it = ranges_.find(key({x, y, z}));
          if (it == ranges_.end()) continue;
          for (int k = it->second.first; k < it->second.second; ++k) visit(order_[k]);
        }
      }
    }
  }

 private:
  Eigen::Array<long long, 3, 1> cellOf(const Vec3& p) const {
    Eigen::Array<long long, 3, 1> c;
    for (int a = 0; a < 3; ++a) {
      const double f = std::floor((p[a] - origin_[a]) / cell_);
      // Far outside the box: any index outside [0, size) will do.
      c[a] = f < -1.0 - reach_ ? -1 - reach_
             : f > static_cast<double>(size_[a] + reach_) ? size_[a] + reach_
                                                          : static_cast<long long>(f);
    }
    return c;
  }
  long long key(const Eigen::Array<long long, 3, 1>& c) const { return (c[0] * size_[1] + c[1]) * size_[2] + c[2]; }

  double cell_;
  long long reach_;
  Vec3 origin_ = Vec3::Zero();
  long long size_[3] = {0, 0, 0};
  std::unordered_map<long long, std::pair<int, int>> ranges_;  // cube key -> range in order_
  std::vector<int> order_;
};

// Cubes of a third of the cutoff radius: the 7^3 searched cover ~2x the disc of a flat
// surface within the radius (27 cubes of the radius itself: ~3x).
constexpr int kCellsPerRadius = 3;

}  // namespace

double renderedMixtureCost(const PointCloud& cloud, const VecX& vertices, const TriangleMatrix& triangles,
                           const std::vector<Camera>& cameras, const RenderedMixtureOptions& options, double weight,
                           VecX* gradient) {
  validateRenderedCost("rendered mixture cost", options, cameras, vertices, gradient);
  const std::vector<RenderedSample> samples = renderSamples(vertices, triangles, cameras, options.threads);
  if (samples.empty()) throw InputError("rendered mixture cost: the cameras see nothing of the surface");
  const int n = cloud.size();
  const int m = static_cast<int>(samples.size());
  const double s2 = options.sigma * options.sigma;
  const double radius = options.cutoff * options.sigma;
  const double r2 = radius * radius;
  const double eps = std::exp(-0.5 * options.cutoff * options.cutoff);

  std::vector<Vec3> sampleAt(static_cast<size_t>(m)), pointAt(static_cast<size_t>(n));
  for (int j = 0; j < m; ++j) sampleAt[j] = samples[j].point;
  for (int i = 0; i < n; ++i) pointAt[i] = cloud.point(i);

  // Per point: Z_i = eps + sum_j exp(-|y_i - s_j|^2 / (2 sigma^2)), and with a gradient
  // the terms e_ij themselves, found in parallel over fixed chunks of points and then
  // added into the samples in point order (the same bits whatever the thread count);
  // batches of chunks bound the terms kept at a time.
  // Per sample: g_j = sum_i gamma_ij (s_j - y_i), gamma_ij = e_ij / Z_i (the cost's sigma^2
  // cancels the exponent's 1 / sigma^2).
  const RadiusGrid sampleGrid(sampleAt, radius / kCellsPerRadius, kCellsPerRadius);
  struct Term {
    int sample;
    double e;
  };
  constexpr int kChunk = 256, kChunksPerBatch = 8;
  const int chunks = (n + kChunk - 1) / kChunk;
  std::vector<std::vector<Term>> terms(kChunksPerBatch);
  std::vector<std::vector<int>> termEnd(kChunksPerBatch);  // per chunk: end of point i's terms
  std::vector<double> z(static_cast<size_t>(n));
  std::vector<Vec3> g(gradient ? static_cast<size_t>(m) : 0, Vec3::Zero());
  for (int batch = 0; batch < chunks; batch += kChunksPerBatch) {
    const int batchChunks = std::min(kChunksPerBatch, chunks - batch);
    forEachRangeInParallel(batchChunks, options.threads, [&](int begin, int end) {
      for (int local = begin; local < end; ++local) {
        const int c = batch + local;
        terms[local].clear();
        termEnd[local].clear();
        for (int i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) {
          double sum = eps;
          sampleGrid.forEachNear(pointAt[i], [&](int j) {
            const double d2 = (pointAt[i] - sampleAt[j]).squaredNorm();
            if (d2 >= r2) return;
            const double e = std::exp(-0.5 * d2 / s2);
            sum += e;
            if (gradient) terms[local].push_back({j, e});
          });
          z[i] = sum;
          if (gradient) termEnd[local].push_back(static_cast<int>(terms[local].size()));
        }
      }
    }, 1);
    if (!gradient) continue;
    for (int local = 0; local < batchChunks; ++local) {
      const int c = batch + local;
      int k = 0;
      for (int i = c * kChunk, p = 0; i < std::min(n, (c + 1) * kChunk); ++i, ++p) {
        const double inverse = 1.0 / z[i];
        for (; k < termEnd[local][p]; ++k) {
          const Term& t = terms[local][k];
          g[t.sample] += (t.e * inverse) * (sampleAt[t.sample] - pointAt[i]);
        }
      }
    }
  }
  double cost = 0.0;
  for (int i = 0; i < n; ++i) cost -= std::log(z[i]);
  cost *= weight * s2;
  if (!gradient) return cost;
  addRenderedSampleGradient(samples, g, vertices, triangles, weight, *gradient);
  return cost;
}

}  // namespace softfit

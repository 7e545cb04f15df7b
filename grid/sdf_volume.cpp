#include "grid/sdf_volume.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "forward/errors.h"

namespace softfit {

void validateSdfVolume(const SdfVolume& volume) {
  const std::string& src = volume.source;
  for (int a = 0; a < 3; ++a) {
    if (volume.dims[a] < 2)
      throw InputError(src + ": dims must be at least 2 samples per axis (got " + std::to_string(volume.dims[a]) + ")");
    if (!(volume.spacing[a] > 0.0) || !std::isfinite(volume.spacing[a]))
      throw InputError(src + ": spacing must be positive and finite");
  }
  if (!volume.origin.allFinite()) throw InputError(src + ": origin must be finite");
  if (static_cast<long long>(volume.values.size()) != volume.sampleCount())
    throw InputError(src + ": has " + std::to_string(volume.values.size()) + " values, dims require " +
                     std::to_string(volume.sampleCount()));
  for (size_t n = 0; n < volume.values.size(); ++n)
    if (!std::isfinite(volume.values[n]))
      throw InputError(src + ": value " + std::to_string(n) + " is not finite");
}

SdfVolume sampleSdf(const SignedDistanceField& sdf, double spacing, int marginSamples) {
  if (!(spacing > 0.0) || !std::isfinite(spacing))
    throw InputError(sdf.name() + ": sampling spacing must be positive and finite");
  const AxisBox b = sdf.bounds();
  if (!b.isFinite() || b.isEmpty()) throw InputError(sdf.name() + ": bounds are empty or not finite");
  SdfVolume v;
  v.source = sdf.name() + " (sampled)";
  v.spacing = Vec3::Constant(spacing);
  v.origin = b.min.array() - marginSamples * spacing;
  for (int a = 0; a < 3; ++a)
    v.dims[a] = static_cast<int>(std::ceil((b.max[a] - b.min[a]) / spacing)) + 1 + 2 * marginSamples;
  v.values.resize(static_cast<size_t>(v.sampleCount()));
  for (int k = 0; k < v.dims[2]; ++k)
    for (int j = 0; j < v.dims[1]; ++j)
      for (int i = 0; i < v.dims[0]; ++i) v.values[v.index(i, j, k)] = sdf.value(v.samplePosition(i, j, k));
  return v;
}

VolumeSdf::VolumeSdf(SdfVolume volume) : volume_(std::move(volume)) { validateSdfVolume(volume_); }

double VolumeSdf::interpolate(const Vec3& p) const {
  const Vec3 u = (p - volume_.origin).cwiseQuotient(volume_.spacing);
  int base[3];
  double t[3];
  for (int a = 0; a < 3; ++a) {
    base[a] = std::clamp(static_cast<int>(std::floor(u[a])), 0, volume_.dims[a] - 2);
    t[a] = std::clamp(u[a] - base[a], 0.0, 1.0);
  }
  double value = 0.0;
  for (int corner = 0; corner < 8; ++corner) {
    const int di = corner & 1, dj = (corner >> 1) & 1, dk = (corner >> 2) & 1;
    const double w = (di ? t[0] : 1 - t[0]) * (dj ? t[1] : 1 - t[1]) * (dk ? t[2] : 1 - t[2]);
    value += w * volume_.values[volume_.index(base[0] + di, base[1] + dj, base[2] + dk)];
  }
  return value;
}

double VolumeSdf::value(const Vec3& p) const {
  const AxisBox box = volume_.box();
  const double outside = box.distance(p);
  if (outside == 0.0) return interpolate(p);
  const Vec3 clamped = p.cwiseMax(box.min).cwiseMin(box.max);
  return std::max(interpolate(clamped), 0.0) + outside;
}

}  // namespace softfit

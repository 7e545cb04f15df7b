#pragma once
// A signed distance field sampled on a dense regular grid (e.g. read from a volume file,
// see sdf_volume_file.h, or sampled from any other SDF such as a triangle mesh), and the
// SDF that interpolates it trilinearly.
#include <vector>

#include "grid/signed_distance_field.h"

namespace softfit {

struct SdfVolume {
  Vec3 origin = Vec3::Zero();                       // position of sample (0, 0, 0)
  Vec3 spacing = Vec3::Ones();                      // sample distance per axis (> 0)
  Eigen::Vector3i dims = Eigen::Vector3i::Zero();   // samples per axis (>= 2 each)
  std::vector<double> values;                       // x fastest: i + nx (j + ny k)
  std::string source = "<sampled>";                 // file name for messages

  long long sampleCount() const { return static_cast<long long>(dims[0]) * dims[1] * dims[2]; }
  long long index(int i, int j, int k) const { return i + static_cast<long long>(dims[0]) * (j + static_cast<long long>(dims[1]) * k); }
  Vec3 samplePosition(int i, int j, int k) const { return origin + spacing.cwiseProduct(Vec3(i, j, k)); }
  AxisBox box() const { return {origin, samplePosition(dims[0] - 1, dims[1] - 1, dims[2] - 1)}; }
};

// Throws InputError naming volume.source when dims < 2, spacing <= 0, the value count
// does not match dims, or a value / the origin is not finite.
void validateSdfVolume(const SdfVolume& volume);

// Samples `sdf` at the nodes of a grid with the given spacing that covers its bounds with
// `marginSamples` extra samples on every side.
SdfVolume sampleSdf(const SignedDistanceField& sdf, double spacing, int marginSamples = 2);

// Trilinear interpolation of a volume. Outside the sampled box, phi = max(phi(clamped
// point), 0) + distance to the box: an object that touches the box is cut by it.
class VolumeSdf final : public SignedDistanceField {
 public:
  explicit VolumeSdf(SdfVolume volume);  // validates
  double value(const Vec3& p) const override;
  AxisBox bounds() const override { return volume_.box(); }
  std::string name() const override { return volume_.source; }
  const SdfVolume& volume() const { return volume_; }

 private:
  double interpolate(const Vec3& p) const;  // p inside the box
  SdfVolume volume_;
};

}  // namespace softfit

#include "reconstruct/surface_extraction.h"

#include <open3d/geometry/TriangleMesh.h>
#include <open3d/pipelines/integration/UniformTSDFVolume.h>

#include <algorithm>
#include <cmath>

#include "forward/errors.h"

namespace softfit {

TriangleSurface extractZeroSurface(const SdfVolume& volume) {
  const double h = volume.spacing[0];
  if (std::abs(volume.spacing[1] - h) > 1e-12 * h || std::abs(volume.spacing[2] - h) > 1e-12 * h)
    throw InputError(volume.source + ": surface extraction needs equal spacing on every axis");
  const int resolution = volume.dims.maxCoeff() + 2;  // one padding sample on each side
  const Vec3 origin = volume.origin - Vec3::Constant(1.5 * h);  // voxel centres at origin + (i + 1/2) h
  open3d::pipelines::integration::UniformTSDFVolume cube(
      resolution * h, resolution, 3.0 * h, open3d::pipelines::integration::TSDFVolumeColorType::NoColor, origin);
  for (auto& voxel : cube.voxels_) {
    voxel.tsdf_ = 1.0f;
    voxel.weight_ = 1.0f;
  }
  for (int k = 0; k < volume.dims[2]; ++k)
    for (int j = 0; j < volume.dims[1]; ++j)
      for (int i = 0; i < volume.dims[0]; ++i) {
        const double phi = volume.values[volume.index(i, j, k)] / h;
        cube.voxels_[cube.IndexOf(i + 1, j + 1, k + 1)].tsdf_ = static_cast<float>(std::clamp(phi, -1e6, 1e6));
      }
  const std::shared_ptr<open3d::geometry::TriangleMesh> mesh = cube.ExtractTriangleMesh();
  TriangleSurface out;
  out.source = volume.source;
  out.vertices.resize(static_cast<Eigen::Index>(mesh->vertices_.size()), 3);
  for (std::size_t i = 0; i < mesh->vertices_.size(); ++i) out.vertices.row(i) = mesh->vertices_[i].transpose();
  out.triangles.resize(static_cast<Eigen::Index>(mesh->triangles_.size()), 3);
  for (std::size_t t = 0; t < mesh->triangles_.size(); ++t) out.triangles.row(t) = mesh->triangles_[t].transpose();
  if (out.triangles.rows() == 0) throw InputError(volume.source + ": the SDF volume has no zero surface");
  if (enclosedVolume(out) < 0.0) out.triangles.col(1).swap(out.triangles.col(2));
  return out;
}

}  // namespace softfit

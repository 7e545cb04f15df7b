#pragma once
// The zero level set of a sampled SDF volume as a closed triangle surface: marching
// cubes (Lorensen & Cline 1987) by Open3D 0.16's UniformTSDFVolume::ExtractTriangleMesh,
// run on a cube of voxels whose centres are the volume's samples (values phi / h as
// float, weight 1; the cube is padded with outside values so the surface closes).
// Vertices come back in double; triangles are oriented outwards (positive volume).
#include <Eigen/Core>

#include "grid/sdf_volume.h"

namespace softfit {

struct TriangleSurface {
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> vertices;
  Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor> triangles;
};

// Throws InputError when the spacing is not uniform or the surface is empty.
TriangleSurface extractZeroSurface(const SdfVolume& volume);

// Enclosed volume (divergence theorem; positive for outward triangles).
double enclosedVolume(const TriangleSurface& surface);

}  // namespace softfit

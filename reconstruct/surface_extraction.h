#pragma once
// The zero level set of a sampled SDF volume as a closed triangle surface: marching
// cubes (Lorensen & Cline 1987) by Open3D 0.16's UniformTSDFVolume::ExtractTriangleMesh,
// run on a cube of voxels whose centres are the volume's samples (values phi / h as
// float, weight 1; the cube is padded with outside values so the surface closes).
// Vertices come back in double; triangles are oriented outwards (positive enclosed volume).
#include "forward/mesh/triangle_surface.h"
#include "grid/sdf_volume.h"

namespace softfit {

// Throws InputError when the spacing is not uniform or the surface is empty.
TriangleSurface extractZeroSurface(const SdfVolume& volume);
// (enclosedVolume: forward/mesh/triangle_surface.h.)

}  // namespace softfit

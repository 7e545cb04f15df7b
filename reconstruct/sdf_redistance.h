#pragma once
// The fused SDF volume's values replaced by the exact signed distance to its own zero
// surface (marching cubes, surface_extraction.h), on the same lattice, through
// grid/mesh_sdf.h (BVH point-triangle distance, pseudonormal sign).
//
// Why: the fused values are TSDF averages near the surface (slopes of 1.8-3.7 across a
// Kinect-captured box face, bench/README.md) and chamfer distances beyond; the cut-cell
// grid assumes a 1-Lipschitz SDF when it decides which cells the surface may cross and
// refines those, and interpolates the samples linearly. With the exact distance the
// grid's body matches the fused surface (the bench box: point cost at the start 26%
// lower, fitted E 5905 -> 5803 with the true value 5000).
#include "forward/mesh/triangle_surface.h"
#include "grid/sdf_volume.h"

namespace softfit {

// Returns false (and leaves `volume` as it was) when `surface` is not a closed,
// consistently oriented 2-manifold (mesh_sdf.h's check).
bool redistanceToSurface(SdfVolume& volume, const TriangleSurface& surface);

}  // namespace softfit

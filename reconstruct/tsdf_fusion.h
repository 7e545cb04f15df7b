#pragma once
// The rest shape as a signed distance volume: TSDF fusion of the rest frames' segmented
// object depth (Curless & Levoy 1996, "A Volumetric Method for Building Complex Models
// from Range Images", SIGGRAPH; Open3D 0.16's UniformTSDFVolume, float inside Open3D)
// plus space carving from every camera's full depth image (Kutulakos & Seitz 2000, "A
// Theory of Shape by Space Carving", IJCV), so that sides no camera saw still close.
//
// Per voxel centre x (cube of Open3D voxels, centres at origin + (i + 1/2) h):
//  - carved (outside): for some camera, at least carveFraction (3/4) of the measured
//    pixels within the projection of x's voxel's inscribed ball (radius h / 2) have a
//    depth D with x's camera depth z < D - (3 sigma(D) + h): the camera sees past the
//    voxel;
//  - else, observed by the TSDF (weight > 0): phi = tsdf x truncation (Open3D's
//    projective distance along the ray, averaged over views);
//  - else, shadowed (some camera sees the object at or in front of x: x lies in the
//    object's own shadow, never seen through): inside, phi = -truncation;
//  - else (hidden only by other things, or outside every image): outside.
// Voxels within `groundBand` of the ground continue the voxel straight above the band
// (the lowest cross-section the cameras separate from the floor is extruded down to it,
// narrowing along the side's slope where the body narrows: extrudeIntoGroundBand,
// sdf_volume_cleanup.h).
// Then only the largest 6-connected inside region is kept, the body is clipped at the
// ground plane (phi = max(phi, -(n . x + offset))), and values beyond the truncation band
// are extended to distances by a chamfer distance transform (sdf_volume_cleanup.h).
// Output in double; the Open3D part is deterministic (one voxel per loop iteration).
#include <vector>

#include "grid/sdf_volume.h"
#include "observations/camera.h"
#include "observations/depth_map.h"
#include "reconstruct/depth_noise.h"

namespace softfit {

struct FusionView {
  Camera camera;
  DepthMap objectDepth;  // the object's pixels only (0 elsewhere)
  DepthMap fullDepth;    // every measured pixel (after the flying-pixel filter), for carving
};

struct FusionOptions {
  double voxel = 0.01;        // voxel size h (metres)
  double truncationVoxels = 3.0;
  Vec3 lo = Vec3::Zero(), hi = Vec3::Ones();  // box that must hold the object
  Vec3 groundNormal = Vec3::UnitY();
  double groundOffset = 0.0;
  bool clipAtGround = true;
  // Share of a voxel's footprint pixels that must see past it to carve it (tsdf_fusion.cpp).
  double carveFraction = 0.75;
  // Height above the ground below which the images cannot separate object and floor
  // (the segmentation's ground band, 3 sigma + a voxel): voxels there copy the voxel
  // straight above it (the lowest seen cross-section is extruded to the floor). 0 = off.
  double groundBand = 0.0;
};

struct FusionResult {
  SdfVolume volume;       // negative inside, cropped to the body plus 3 voxels
  int insideVoxels = 0;
  int carvedVoxels = 0;
  int observedVoxels = 0;
  // Per sample of `volume`: 1 where the value is the shadow rule's inside (no carving, no
  // TSDF observation): what no camera saw (unseen_fill_trim.h may trim it).
  std::vector<char> shadowFilled;
};

// Throws InputError when the box is empty or too large (more than 400 voxels across),
// or nothing is inside after carving.
FusionResult fuseRestShape(const std::vector<FusionView>& views, const DepthNoise& noise, const FusionOptions& options);

}  // namespace softfit

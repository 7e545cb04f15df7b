#pragma once
// Post-processing of a sampled signed distance volume (negative inside):
//  - keepLargestInsideRegion: inside samples not 6-connected to the largest inside
//    region become outside (value +fill);
//  - extendDistances: samples with |phi| >= band get |phi| replaced by band + the
//    3-4-5-style chamfer distance (weights h, sqrt(2) h, sqrt(3) h over the 26
//    neighbours, two raster passes; Borgefors 1984, "Distance transformations in
//    arbitrary dimensions", CVGIP) to the nearest sample inside the band, keeping the
//    sign. The result is a distance bound usable by the cut-cell grid's tests
//    (grid/README.md: cells beyond sqrt(3)/2 h of the surface are not refined);
//  - extrudeIntoGroundBand: near the floor the depth images cannot tell the object from
//    the floor (the segmentation labels both ground): samples less than `band` above the
//    ground n . x + offset = 0 continue the sample straight above the band (nearest
//    sample a at height band + h/2) along its slope where the body narrows downwards:
//    phi = phi(a) + max(0, (phi(a) - phi(b)) / (height(b) - height(a))) (height(a) -
//    height), b the sample nearest a + 2h n. A
//    vertical side is extruded to the floor, a round bottom keeps narrowing towards its
//    contact; nothing grows. band <= 0 leaves the volume as it is.
#include "grid/sdf_volume.h"

namespace softfit {

// Returns the number of samples in the kept region.
int keepLargestInsideRegion(SdfVolume& volume, double fill);
void extendDistances(SdfVolume& volume, double band);
void extrudeIntoGroundBand(SdfVolume& volume, const Vec3& groundNormal, double groundOffset, double band);
// phi = max(phi, -(n . x + offset)): the body ends at the ground plane.
void clipAtGround(SdfVolume& volume, const Vec3& groundNormal, double groundOffset);

}  // namespace softfit

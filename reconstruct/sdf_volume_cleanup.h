#pragma once
// Post-processing of a sampled signed distance volume (negative inside):
//  - keepLargestInsideRegion: inside samples not 6-connected to the largest inside
//    region become outside (value +fill);
//  - extendDistances: samples with |phi| >= band get |phi| replaced by band + the
//    3-4-5-style chamfer distance (weights h, sqrt(2) h, sqrt(3) h over the 26
//    neighbours, two raster passes; Borgefors 1984, "Distance transformations in
//    arbitrary dimensions", CVGIP) to the nearest sample inside the band, keeping the
//    sign. The result is a distance bound usable by the cut-cell grid's tests
//    (grid/README.md: cells beyond sqrt(3)/2 h of the surface are not refined).
#include "grid/sdf_volume.h"

namespace softfit {

// Returns the number of samples in the kept region.
int keepLargestInsideRegion(SdfVolume& volume, double fill);
void extendDistances(SdfVolume& volume, double band);

}  // namespace softfit

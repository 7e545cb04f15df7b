#pragma once
// Flying-pixel filter on a depth image's grid, before back-projection. At a depth
// discontinuity a structured-light (or time-of-flight) sensor returns mixed depths
// between the foreground and the background (Sabov & Krueger 2008, "Identification and
// Correction of Flying Pixels in Range Camera Data"); such a pixel differs from the
// neighbours on BOTH sides, while a true edge pixel of the foreground agrees with its
// foreground neighbour.
//
// Rule: with jump(p, q) = q measured and |z_q - z_p| > max(k sigma(z_p), r z_p,
// z_p tan(maxSlopeDegrees) / fx) (the last term: the depth step between neighbouring
// pixels on a real surface seen at up to maxSlopeDegrees from its normal, which matters
// in coarse images; a mixed pixel between them is indistinguishable from a slope), pixel p
// is removed when jump holds for both its left and right neighbours, or for both its
// upper and lower neighbours, or when none of its 8 neighbours is measured without a
// jump (an isolated pixel). Decisions use the input image only (one pass, order-free).
#include "observations/depth_map.h"
#include "reconstruct/depth_noise.h"

namespace softfit {

struct FlyingPixelOptions {
  double sigmas = 4.0;        // k
  double depthRatio = 0.02;   // r: a jump is at least this fraction of the depth
  double maxSlopeDegrees = 80.0;  // steepest surface kept (Kinect v1 drops beyond 75 degrees)
};

// Sets the flying and isolated pixels of `map` to 0; returns how many were removed.
// fx: the image's focal length in pixels.
int removeFlyingPixels(DepthMap& map, double fx, const DepthNoise& noise, const FlyingPixelOptions& options = {});

}  // namespace softfit

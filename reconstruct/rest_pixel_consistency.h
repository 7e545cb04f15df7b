#pragma once
// Mixed-pixel removal across the rest frames. The object does not move while they are
// taken, so every pixel sees the same surface in each of them, up to the depth noise.
// A mixed ("flying") pixel at a depth edge returns a depth between the foreground and
// the background, different in every frame, and always behind the true foreground
// (flying_pixel_filter.h; Sabov & Krueger 2008). The single-image filter must keep mixed
// pixels within its slope tolerance of the foreground; here, per camera and pixel over
// the R rest frames (R >= minFrames), the kept depths are the nearest window
// [z_i, z_i + sigmas * sigma(z_i)] (z_i a measured depth) that holds at least
// minAgreeing of them; every depth outside it is removed (a mixed return, the background
// seen past a jittered edge, or a lone outlier), and the whole pixel when no window
// holds minAgreeing depths (no two frames agree on a surface there).
// Noise alone keeps a pixel: 5 Gaussian depths span about 2.3 sigma on average, more
// than 4 sigma at about 3% of the pixels, which then lose an extreme frame.
// These pixels set the closed underside of a held object (its lowest seen point) and the
// fused rest shape; with the Kinect model's flying pixels the demo box's underside was
// closed 3.5 mm low without this filter.
#include <vector>

#include "reconstruct/depth_noise.h"
#include "reconstruct/raw_depth_frames.h"

namespace softfit {

struct RestPixelConsistencyOptions {
  double sigmas = 4.0;
  int minFrames = 3;    // fewer rest frames: nothing to compare, nothing removed
  int minAgreeing = 2;  // values below 1 count as 1
};

// Sets the removed depths of `restFrames` to 0; returns how many depths were removed.
// Frames must hold one view per camera index (0 .. cameraCount - 1), in any order.
int removeInconsistentRestPixels(std::vector<RawDepthFrame>& restFrames, int cameraCount, const DepthNoise& noise,
                                 const RestPixelConsistencyOptions& options = {});

}  // namespace softfit

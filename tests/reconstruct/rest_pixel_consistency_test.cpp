// Mixed pixels across the rest frames: depths behind the pixel's nearest return by more
// than 4 sigma go, pixels where no two frames agree go from every frame, noise stays.
// (The nearest window of 4 sigma holding two depths is kept.)
#include <gtest/gtest.h>

#include "observations/gaussian_noise.h"
#include "reconstruct/rest_pixel_consistency.h"

namespace softfit {
namespace {

// `count` rest frames of two cameras (camera 1 listed first), w x h pixels each, all at
// 1.5 m plus `noisy` x the Kinect model's Gaussian depth noise.
std::vector<RawDepthFrame> restFrames(int count, const DepthNoise& noise, double noisy = 0.0, int w = 6, int h = 4) {
  GaussianNoise rng(7);
  std::vector<RawDepthFrame> frames(count);
  for (int f = 0; f < count; ++f) {
    frames[f].frame = f;
    for (int c : {1, 0}) {
      RawDepthView view;
      view.camera = c;
      view.depth = DepthMap(w, h);
      for (double& z : view.depth.depth) z = 1.5 + noisy * noise.sigma(1.5) * rng.next();
      frames[f].views.push_back(view);
    }
  }
  return frames;
}

TEST(RestPixelConsistency, RemovesMixedDepths) {
  const DepthNoise noise;
  std::vector<RawDepthFrame> frames = restFrames(5, noise, 0.5);
  const std::vector<RawDepthFrame> clean = frames;
  const double sigma = noise.sigma(1.5);
  // Camera 0 (second view), pixel (2, 1): mixed returns 5 and 20 sigma behind in two frames.
  frames[1].views[1].depth.at(2, 1) += 20 * sigma;
  frames[3].views[1].depth.at(2, 1) += 5 * sigma;
  // Camera 1 (first view), pixel (4, 3): every frame a different mixed depth, one hole.
  for (int f = 0; f < 5; ++f) frames[f].views[0].depth.at(4, 3) = f == 2 ? 0.0 : 1.5 + 0.1 * (f + 1);
  // Camera 1, pixel (0, 0): measured in one frame only (holes elsewhere): nothing agrees.
  for (int f = 1; f < 5; ++f) frames[f].views[0].depth.at(0, 0) = 0.0;

  EXPECT_EQ(removeInconsistentRestPixels(frames, 2, noise), 2 + 4 + 1);
  EXPECT_EQ(frames[1].views[1].depth.at(2, 1), 0.0);
  EXPECT_EQ(frames[3].views[1].depth.at(2, 1), 0.0);
  EXPECT_EQ(frames[0].views[1].depth.at(2, 1), clean[0].views[1].depth.at(2, 1)) << "the agreeing frames stay";
  for (int f = 0; f < 5; ++f) EXPECT_EQ(frames[f].views[0].depth.at(4, 3), 0.0) << f;
  EXPECT_EQ(frames[0].views[0].depth.at(0, 0), 0.0);
  // Everything else (noise of half a sigma) is untouched.
  int same = 0;
  for (int f = 0; f < 5; ++f)
    for (int v = 0; v < 2; ++v)
      for (std::size_t p = 0; p < clean[f].views[v].depth.depth.size(); ++p)
        same += frames[f].views[v].depth.depth[p] == clean[f].views[v].depth.depth[p];
  EXPECT_EQ(same, 5 * 2 * 24 - 2 - 5 - 5) << "only the three pixels above changed";
}

TEST(RestPixelConsistency, NoiseAloneLosesFewDepthsAndNoPixel) {
  // 5 Gaussian depths span more than 4 sigma at about 3% of the pixels (the range of 5
  // standard normals); such a pixel loses an extreme frame (rarely two), never all.
  const DepthNoise noise;
  std::vector<RawDepthFrame> frames = restFrames(5, noise, 1.0, 100, 50);
  const int removed = removeInconsistentRestPixels(frames, 2, noise);
  const int pixels = 2 * 100 * 50;
  EXPECT_GT(removed, 0.01 * pixels);
  EXPECT_LT(removed, 0.05 * pixels);
  int empty = 0, lostTwo = 0;
  for (int c = 0; c < 2; ++c)
    for (int p = 0; p < 100 * 50; ++p) {
      int measured = 0;
      for (const RawDepthFrame& f : frames) measured += f.views[c].depth.depth[p] > 0.0;
      empty += measured == 0;
      lostTwo += measured < 4;
    }
  EXPECT_EQ(empty, 0);
  EXPECT_LT(lostTwo, 0.01 * pixels);
}

TEST(RestPixelConsistency, TooFewRestFramesLeaveEverything) {
  const DepthNoise noise;
  std::vector<RawDepthFrame> frames = restFrames(2, noise);
  frames[0].views[0].depth.at(1, 1) += 1.0;
  EXPECT_EQ(removeInconsistentRestPixels(frames, 2, noise), 0);
  EXPECT_GT(frames[0].views[0].depth.at(1, 1), 2.0);
}

}  // namespace
}  // namespace softfit

#include "observations/render_capture.h"

#include <string>

#include "forward/errors.h"
#include "observations/depth_renderer.h"
#include "observations/gaussian_noise.h"

namespace softfit {

PointCloud renderCloud(const VecX& positions, const TriangleMatrix& surface, const std::vector<Camera>& cameras) {
  const TriangleBvh bvh(positions, surface);
  PointCloud cloud;
  long long firstPixel = 0;
  for (const Camera& camera : cameras) {
    appendCloud(cloud, depthMapToCloud(camera, renderDepth(camera, bvh)), firstPixel);
    firstPixel += static_cast<long long>(camera.intrinsics.width) * camera.intrinsics.height;
  }
  return cloud;
}

namespace {

// Frame f's surface positions and triangles come from `positionsOf(state)`.
template <typename PositionsOf>
Capture renderFrames(const std::vector<State>& states, const TriangleMatrix& surface, const PositionsOf& positionsOf,
                     const std::vector<Camera>& cameras, const NoiseOptions& noise, int stride, double simulationDt) {
  if (states.empty()) throw InputError("render capture: no states");
  if (cameras.empty()) throw InputError("render capture: no cameras");
  if (stride < 1) throw InputError("render capture: stride must be at least 1");
  if (!(noise.sigma >= 0.0)) throw InputError("render capture: noise sigma must be >= 0");
  if (noise.replicates < 1) throw InputError("render capture: noise replicates must be at least 1");
  if (!(simulationDt >= 0.0)) throw InputError("render capture: simulation dt must be >= 0");
  Capture capture;
  capture.source = "<rendered>";
  GaussianNoise rng(noise.seed);
  const int frames = static_cast<int>((states.size() - 1) / static_cast<std::size_t>(stride)) + 1;
  for (int f = 0; f < frames; ++f) {
    CaptureFrame frame;
    frame.frame = f;
    const PointCloud clean =
        renderCloud(positionsOf(states[static_cast<std::size_t>(f) * stride]), surface, cameras);
    if (clean.empty())
      throw InputError("render capture: frame " + std::to_string(f) + " (step " + std::to_string(f * stride) +
                       "): no camera sees the surface");
    for (int copy = 0; copy < noise.replicates; ++copy) {
      PointCloud noisy = clean;
      addGaussianNoise(noisy, noise.sigma, rng);
      appendCloud(frame.cloud, noisy);
    }
    capture.frames.push_back(std::move(frame));
  }
  if (simulationDt > 0.0) {
    capture.dt = stride * simulationDt;
  } else if (frames > 1) {
    const double span = states[static_cast<std::size_t>(frames - 1) * stride].time - states[0].time;
    capture.dt = span / (frames - 1);
  }
  return capture;
}

}  // namespace

Capture renderCapture(const std::vector<State>& states, const TriangleMatrix& surface,
                      const std::vector<Camera>& cameras, const NoiseOptions& noise, int stride,
                      double simulationDt) {
  return renderFrames(
      states, surface, [](const State& s) -> const VecX& { return s.x; }, cameras, noise, stride, simulationDt);
}

Capture renderCapture(const std::vector<State>& states, const EmbeddedSurface& surface,
                      const std::vector<Camera>& cameras, const NoiseOptions& noise, int stride,
                      double simulationDt) {
  if (surface.identity) return renderCapture(states, surface.triangles, cameras, noise, stride, simulationDt);
  return renderFrames(
      states, surface.triangles, [&](const State& s) { return surface.flatPositions(s.x); }, cameras, noise, stride,
      simulationDt);
}

}  // namespace softfit

#pragma once
// Synthetic captures: virtual depth cameras looking at a simulated trajectory.
#include <cstdint>
#include <vector>

#include "forward/integrators/time_integrator.h"
#include "observations/camera.h"
#include "observations/capture.h"
#include "observations/depth_map.h"
#include "grid/embedded_surface.h"

namespace softfit {

struct NoiseOptions {
  double sigma = 0.0;       // standard deviation of the isotropic Gaussian noise added to each coordinate (metres)
  std::uint64_t seed = 0;   // same seed, same noise (gaussian_noise.h)
  // Independent noise draws per rendered point: each frame holds `replicates` noisy
  // copies of its noise-free cloud (copy 0 first). 1 = an ordinary capture. More copies
  // average the noise of a synthetic re-estimate (parametric bootstrap,
  // optim/bootstrap_bias.h) at the cost of more points per frame.
  int replicates = 1;
};

// All cameras' back-projected depth maps of the surface at `positions`, merged in camera
// order (the points of camera 0 first), with each point's pixel (PointCloud::pixels).
PointCloud renderCloud(const VecX& positions, const TriangleMatrix& surface, const std::vector<Camera>& cameras);

// Capture frame f = the surface at states[f * stride] seen by every camera, for every
// f with f * stride < states.size(), plus noise (one random stream over all frames, in
// frame, copy, camera, pixel order). capture.dt = stride * simulationDt, or, when simulationDt
// is 0, the mean time between captured states (states[].time). Throws InputError when
// there are no states or cameras, stride < 1, replicates < 1, or a frame sees no point
// (the cameras miss the body).
Capture renderCapture(const std::vector<State>& states, const TriangleMatrix& surface,
                      const std::vector<Camera>& cameras, const NoiseOptions& noise, int stride,
                      double simulationDt = 0.0);
// The same for an embedded surface (vertices W x: a cut-cell grid's object surface, or a
// tet mesh's boundary with the identity embedding).
Capture renderCapture(const std::vector<State>& states, const EmbeddedSurface& surface,
                      const std::vector<Camera>& cameras, const NoiseOptions& noise, int stride,
                      double simulationDt = 0.0);

}  // namespace softfit

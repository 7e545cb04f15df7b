#pragma once
// The noise-aware point cost of one frame: the negative log-likelihood of the observed
// points under the Gaussian noise model, with the model's own points rendered by the
// capture's cameras.
//
// A depth camera sees one point per pixel, s_j = o + t_j d_j on the pixel's ray, and the
// capture adds isotropic Gaussian noise of known sigma to each. Which pixel an observed
// point came from is unknown (the noise moves it off its ray), so each point's density
// is the mixture over the model's rendered points,
//   J(x) = sigma^2 sum_i -log( eps + sum_j exp(-|y_i - s_j(x)|^2 / (2 sigma^2)) ),
// with eps = exp(-cutoff^2 / 2): an outlier floor that also makes the truncation to
// samples within cutoff * sigma continuous. Unlike a distance to the surface, this cost's
// expected gradient vanishes at the true parameters whatever the noise (it is a
// likelihood), so the noise does not bias the estimate. The factor sigma^2 makes it
// read like 1/2 d^2 for a point near one sample.
//
// Gradient: with gamma_ij = exp(-|y_i - s_j|^2 / (2 sigma^2)) / Z_i, the cost's gradient
// w.r.t. s_j is sum_i gamma_ij (s_j - y_i). A rendered point stays on its ray while the
// triangle it hits (vertices a, barycentric b) moves, so ds_j/dv_k = b_k d n^T / (n . d)
// (n the triangle's normal) and vertex k receives b_k n (d . g_j) / (n . d). Samples
// appear and vanish at silhouettes, where the cost jumps (use a gradient-only line
// search, optim/README.md). Deterministic: the terms are found per point (in parallel,
// over fixed chunks of points) and summed into the samples in point order, then into
// the vertices in sample order.
#include <vector>

#include "forward/types.h"
#include "observations/camera.h"
#include "observations/point_cloud.h"
#include "observations/rendered_samples.h"

namespace softfit {

// sigma, threads, and cutoff: samples farther than cutoff * sigma from a point are ignored.
using RenderedMixtureOptions = RenderedCostOptions;

// weight * J(x) of one frame's `cloud`; adds weight * dJ/dvertices to *gradient (3V) when
// given. Throws InputError for sigma <= 0, cutoff < 1, no camera, a triangle index out of
// range or no rendered sample.
double renderedMixtureCost(const PointCloud& cloud, const VecX& vertices, const TriangleMatrix& triangles,
                           const std::vector<Camera>& cameras, const RenderedMixtureOptions& options, double weight,
                           VecX* gradient);

}  // namespace softfit

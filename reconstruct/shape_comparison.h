#pragma once
// Reconstructed vs true shape: enclosed volumes (divergence theorem) and the symmetric
// Chamfer distance, 1/2 (mean_a d(a, B) + mean_b d(b, A)) over area-weighted triangle
// centroids a of surface A and b of B, d = distance to the closest point of the other
// surface (exact, forward/mesh/triangle_bvh.h).
#include <string>

#include "reconstruct/surface_extraction.h"

namespace softfit {

struct ShapeComparison {
  double volume = 0.0, trueVolume = 0.0;
  double volumeErrorPercent = 0.0;  // 100 (volume - trueVolume) / trueVolume
  double chamfer = 0.0;             // metres
};

ShapeComparison compareShapes(const TriangleSurface& reconstructed, const TriangleSurface& truth);

// The rest surface of a scene file (its initial state: what `softfit synth` renders in
// the rest frames); grid scenes give the embedded surface at full sample resolution.
TriangleSurface sceneRestSurface(const std::string& scenePath);

}  // namespace softfit

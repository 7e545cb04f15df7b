#pragma once
// Applications of fitted face models: expression interpolation (animation) and
// fat/thin plasticity.
#include <functional>
#include <vector>

#include "face/expression_objective.h"

namespace softfit::face {

// (1 - t) a + t b for activations and jaw pose.
Expression interpolateExpressions(const Expression& a, const Expression& b, double t);

// Equilibria of `frames` (>= 2) expressions interpolated from a to b (t = k/(frames-1)),
// each warm-started from the previous frame; onFrame(k, t, x) is called per frame.
void animateExpressions(const FaceModel& model, const MuscleGeometry& geometry, const Expression& a,
                        const Expression& b, int frames,
                        const std::function<void(int, double, const VecX&)>& onFrame);

// Fat/thin plasticity F_eff = F Fp^{-1}, Fp = f_i I with f_i = (1 - S_i0) + f S_i0: the
// passive (fat) part of each tet grows (f > 1) or shrinks (f < 1). Assign the result to
// FaceModel::plasticScale.
VecX fatPlasticScale(const MuscleGeometry& geometry, double f);

}  // namespace softfit::face

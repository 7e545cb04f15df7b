#include "face/face_animation.h"

#include "face/face_solver.h"
#include "forward/errors.h"

namespace softfit::face {

Expression interpolateExpressions(const Expression& a, const Expression& b, double t) {
  if (a.activations.size() != b.activations.size())
    throw InputError("interpolating expressions with different numbers of activations");
  Expression e;
  for (std::size_t j = 0; j < a.activations.size(); ++j)
    e.activations.push_back((1.0 - t) * a.activations[j] + t * b.activations[j]);
  e.jaw = (1.0 - t) * a.jaw + t * b.jaw;
  return e;
}

void animateExpressions(const FaceModel& model, const MuscleGeometry& geometry, const Expression& a,
                        const Expression& b, int frames,
                        const std::function<void(int, double, const VecX&)>& onFrame) {
  if (frames < 2) throw InputError("animation: at least 2 frames are needed");
  FaceSolver solver(model);
  VecX x;
  for (int k = 0; k < frames; ++k) {
    const double t = static_cast<double>(k) / (frames - 1);
    const Expression e = interpolateExpressions(a, b, t);
    solver.solve(geometry.tetActivations(e.activations), e.jaw, x);
    onFrame(k, t, x);
  }
}

VecX fatPlasticScale(const MuscleGeometry& geometry, double f) {
  if (!(f > 0.0)) throw InputError("fat factor must be positive");
  VecX s(geometry.tetCount());
  for (int i = 0; i < geometry.tetCount(); ++i) {
    const double passive = geometry.value(i, 0);
    s[i] = (1.0 - passive) + f * passive;
  }
  return s;
}

}  // namespace softfit::face

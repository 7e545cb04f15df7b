#pragma once
// Small face models for the face tests (a few hundred tets at most).
#include <random>

#include "face/face_model.h"
#include "forward/mesh/procedural_box.h"

namespace softfit::face::testing {

// Deterministic uniform numbers in [-1, 1] (raw mt19937 bits, portable).
class Uniform {
 public:
  explicit Uniform(unsigned seed) : engine_(seed) {}
  double operator()() { return 2.0 * (engine_() / 4294967295.0) - 1.0; }

 private:
  std::mt19937 engine_;
};

inline Vec6 randomActivation(Uniform& u, double amplitude) {
  Vec6 a = identityActivation();
  for (int k = 0; k < 6; ++k) a[k] += amplitude * u();
  return a;
}

// A 3 x 2 x 2-cell bar (72 tets) clamped at x = 0 ("skull"), the far end x = 3 on the jaw,
// two muscles (lower and upper half in y) with every tet allowed in both.
inline FaceModel makeBarFace(bool withJaw) {
  FaceModel m = makeFaceModel(makeBoxMesh(Vec3(0, 0, 0), Vec3(3, 1, 1), 3, 2, 2), FaceMaterial{1e3, 0.4, 10.0});
  for (int n = 0; n < m.nodeCount(); ++n) {
    const double x = m.mesh.vertices(n, 0);
    if (x < 1e-9) m.skullNodes.push_back(n);
    if (withJaw && x > 3 - 1e-9) m.jawNodes.push_back(n);
  }
  m.jaw.pivot = Vec3(1.5, 0.5, -0.5);
  m.gravity = Vec3(0, -9.81, 0);
  m.muscleNames = {"lower", "upper"};
  std::vector<std::vector<int>> allowed(m.tetCount(), std::vector<int>{1, 2});
  m.geometry = MuscleGeometry(2, allowed);
  const auto c = tetCentroids(m.mesh);
  for (int t = 0; t < m.tetCount(); ++t) {
    VecX w = VecX::Zero(3);
    if (c[t].y() < 0.5) w << 0.2, 0.8, 0.0; else w << 0.3, 0.0, 0.7;
    m.geometry.setRow(t, w);
  }
  return m;
}

}  // namespace softfit::face::testing

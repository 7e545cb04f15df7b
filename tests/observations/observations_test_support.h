#pragma once
// Helpers shared by the observations tests: small deformed box surfaces, files and
// InputError checks.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "forward/errors.h"
#include "forward/integrators/time_integrator.h"
#include "forward/mesh/procedural_box.h"
#include "forward/mesh/tet_mesh.h"
#include "observations/point_cloud.h"

namespace softfit::testing {

struct Surface {
  TetMesh mesh;
  TriangleMatrix triangles;
  VecX positions;  // deformed
};

// Box mesh with its boundary triangles, every node moved by up to `jitter` per axis.
inline Surface makeBoxSurface(const Vec3& lo, const Vec3& hi, int n, double jitter, unsigned seed) {
  Surface s;
  s.mesh = makeBoxMesh(lo, hi, n, n, n);
  s.triangles = boundaryFaces(s.mesh);
  s.positions = s.mesh.restPositions();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-jitter, jitter);
  for (int i = 0; i < s.positions.size(); ++i) s.positions[i] += u(rng);
  return s;
}

// `count` states of the rigidly translated `positions`: state k moved by k * step along
// x, at time k * dt, at rest.
inline std::vector<State> translatedStates(const VecX& positions, int count, double step, double dt) {
  std::vector<State> states;
  for (int k = 0; k < count; ++k) {
    VecX x = positions;
    for (int i = 0; i < x.size() / 3; ++i) x[3 * i] += step * k;
    states.push_back({x, VecX::Zero(x.size()), dt * k});
  }
  return states;
}

inline void writeFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
}

// Expects `f` to throw InputError whose message contains every string of `parts`.
inline void expectInputError(const std::function<void()>& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    for (const std::string& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "\"" << p << "\" not in: " << msg;
  }
}

}  // namespace softfit::testing

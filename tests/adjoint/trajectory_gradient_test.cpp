// The adjoint gradient of a trajectory loss matches central finite differences for
// every physical parameter and every integrator, on a small body with (co)rotation,
// damping and ground collisions in the trajectory (40 steps).
#include "adjoint/trajectory_gradient.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "forward/integrators/simulator.h"
#include "support/box_model.h"

namespace softfit {
namespace {

// L = sum_k w_k [ 1/2 sum_i m_i |x_ki - t_i|^2 + 1/2 c sum_i m_i |v_ki|^2 ]
class WeightedTrackingLoss final : public TrajectoryLoss {
 public:
  WeightedTrackingLoss(VecX mass, VecX target) : mass_(std::move(mass)), target_(std::move(target)) {}
  double evaluate(int frame, const State& s, VecX& gx, VecX& gv) override {
    const double w = 1.0 + 0.05 * frame;
    const VecX dx = s.x - target_;
    gx += w * mass_.cwiseProduct(dx);
    gv += 0.1 * w * mass_.cwiseProduct(s.v);
    return w * (0.5 * dx.dot(mass_.cwiseProduct(dx)) + 0.05 * s.v.dot(mass_.cwiseProduct(s.v)));
  }

 private:
  VecX mass_, target_;
};

struct Scene {
  TetMesh mesh = makeBoxMesh(Vec3(-0.2, 0.03, -0.2), Vec3(0.2, 0.33, 0.2), 2, 1, 1);
  std::unique_ptr<PhysicalModel> model;
  State initial;
  IntegratorSettings settings;
  int steps = 40;
  double dt = 0.01;

  Scene(MaterialModel material, IntegratorType type) {
    model = testing::makeBoxModel(mesh, material, 3e3, 0.3, 100.0);
    model->gravity = Vec3(0.3, -9.81, 0.1);
    model->damping = {0.2, 0.01};
    // Every node touches the ground, with areas 0.5, 1, 1.5 (mean 1): the gradients
    // must carry the per-point areas (stiffness per unit area).
    std::vector<ContactPoint> all;
    for (int i = 0; i < mesh.vertexCount(); ++i) all.push_back(ContactPoint{{i}, {1.0}, 0.5 + 0.5 * (i % 3)});
    model->ground = GroundContact(GroundPlane{Vec3(0.05, 1.0, 0.0).normalized(), 0.0, 1e4, 100.0}, all);
    initial = restState(*model);
    for (int i = 0; i < mesh.vertexCount(); ++i) {
      const Vec3 r = model->restPositions().segment<3>(3 * i) - Vec3(0, 0.18, 0);
      initial.v.segment<3>(3 * i) = Vec3(0.2, -3.0, 0.0) + Vec3(0.5, 0.3, 2.0).cross(r);
    }
    settings.type = type;
    settings.theta = 0.6;
    settings.newton.stepTolerance = 1e-13;
  }
};

struct Probe {
  std::string name;
  std::function<double()> get;
  std::function<void(double)> set;
  std::function<double(const TrajectoryGradient&)> adjoint;
  // Natural size of the parameter when its value can be 0 (a unit normal's components):
  // the FD step is 1e-5 max(|value|, scale, 1e-2). A step of 1e-7 on a parameter of size
  // 1 is dominated by the round-off of the PCG-solved trajectory (Newmark: 2e-6 relative;
  // steps 1e-5 / 1e-6 agree with the adjoint to 7e-9 / 1e-7).
  double scale = 0.0;
};

std::vector<Probe> probes(Scene& s) {
  PhysicalModel& m = *s.model;
  std::vector<Probe> p;
  for (int e : {0, 7}) {
    p.push_back({"mu_" + std::to_string(e), [&m, e] { return m.elastic().parameters()[e].mu; },
                 [&m, e](double v) {
                   auto lame = m.elastic().parameters();
                   lame[e].mu = v;
                   m.elastic().setParameters(lame);
                 },
                 [e](const TrajectoryGradient& g) { return g.parameters.mu[e]; }});
    p.push_back({"lambda_" + std::to_string(e), [&m, e] { return m.elastic().parameters()[e].lambda; },
                 [&m, e](double v) {
                   auto lame = m.elastic().parameters();
                   lame[e].lambda = v;
                   m.elastic().setParameters(lame);
                 },
                 [e](const TrajectoryGradient& g) { return g.parameters.lambda[e]; }});
    p.push_back({"density_" + std::to_string(e), [&m, e] { return m.density()[e]; },
                 [&m, e](double v) {
                   VecX d = m.density();
                   d[e] = v;
                   m.setDensity(d);
                 },
                 [e](const TrajectoryGradient& g) { return g.parameters.density[e]; }});
  }
  p.push_back({"alpha1", [&m] { return m.damping.alpha1; }, [&m](double v) { m.damping.alpha1 = v; },
               [](const TrajectoryGradient& g) { return g.parameters.alpha1; }});
  p.push_back({"alpha2", [&m] { return m.damping.alpha2; }, [&m](double v) { m.damping.alpha2 = v; },
               [](const TrajectoryGradient& g) { return g.parameters.alpha2; }});
  for (int k = 0; k < 3; ++k) {
    p.push_back({"gravity_" + std::to_string(k), [&m, k] { return m.gravity[k]; }, [&m, k](double v) { m.gravity[k] = v; },
                 [k](const TrajectoryGradient& g) { return g.parameters.gravity[k]; }});
    p.push_back({"ground_normal_" + std::to_string(k), [&m, k] { return m.ground->plane().normal[k]; },
                 [&m, k](double v) {
                   GroundPlane plane = m.ground->plane();
                   plane.normal[k] = v;
                   m.ground->setPlane(plane);
                 },
                 [k](const TrajectoryGradient& g) { return g.parameters.groundNormal[k]; }, 1.0});
  }
  p.push_back({"ground_offset", [&m] { return m.ground->plane().offset; },
               [&m](double v) {
                 GroundPlane plane = m.ground->plane();
                 plane.offset = v;
                 m.ground->setPlane(plane);
               },
               [](const TrajectoryGradient& g) { return g.parameters.groundOffset; }});
  for (int dof : {1, 13}) {
    p.push_back({"v0_" + std::to_string(dof), [&s, dof] { return s.initial.v[dof]; },
                 [&s, dof](double v) { s.initial.v[dof] = v; },
                 [dof](const TrajectoryGradient& g) { return g.initialV[dof]; }});
    p.push_back({"x0_" + std::to_string(dof), [&s, dof] { return s.initial.x[dof]; },
                 [&s, dof](double v) { s.initial.x[dof] = v; },
                 [dof](const TrajectoryGradient& g) { return g.initialX[dof]; }});
  }
  return p;
}

struct Case {
  MaterialModel material;
  IntegratorType integrator;
};

class AdjointGradient : public ::testing::TestWithParam<Case> {};

TEST_P(AdjointGradient, MatchesCentralFiniteDifferences) {
  Scene s(GetParam().material, GetParam().integrator);
  WeightedTrackingLoss loss(s.model->mass(), s.model->restPositions() + VecX::Constant(s.model->dofCount(), 0.01));
  const TrajectoryGradient g = trajectoryGradient({s.model.get(), s.settings, s.dt, s.steps, s.initial}, loss);
  // The trajectory really collides.
  {
    Simulator sim(*s.model, makeIntegrator(s.settings), s.dt);
    double deepest = 0.0;
    sim.run(s.initial, s.steps, false, [&](const StepReport& r) {
      deepest = std::max(deepest, s.model->ground->maxPenetration(r.state->x));
    });
    ASSERT_GT(deepest, 1e-3) << "deepest " << deepest;
  }
  for (Probe& p : probes(s)) {
    const double value = p.get();
    const double h = 1e-5 * std::max({std::abs(value), p.scale, 1e-2});
    p.set(value + h);
    const double up = trajectoryLoss({s.model.get(), s.settings, s.dt, s.steps, s.initial}, loss);
    p.set(value - h);
    const double down = trajectoryLoss({s.model.get(), s.settings, s.dt, s.steps, s.initial}, loss);
    p.set(value);
    const double fd = (up - down) / (2 * h);
    const double adj = p.adjoint(g);
    EXPECT_NEAR(adj, fd, 1e-6 * std::max(std::abs(fd), 1e-3 * std::abs(g.loss)))
        << integratorTypeName(GetParam().integrator) << " " << materialModelName(GetParam().material) << " "
        << p.name << " adjoint " << adj << " fd " << fd;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Integrators, AdjointGradient,
    ::testing::Values(Case{MaterialModel::WarpedCorotated, IntegratorType::NewmarkTheta},
                      Case{MaterialModel::Corotated, IntegratorType::BackwardEuler},
                      Case{MaterialModel::StableNeoHookean, IntegratorType::BDF2},
                      Case{MaterialModel::Corotated, IntegratorType::ImplicitMidpoint},
                      Case{MaterialModel::NeoHookean, IntegratorType::NewmarkTrapezoid},
                      Case{MaterialModel::WarpedCorotated, IntegratorType::BackwardEuler}),
    [](const auto& info) {
      return integratorTypeName(info.param.integrator) + "_" + materialModelName(info.param.material);
    });

}  // namespace
}  // namespace softfit

// The gradient-check utility behind `softfit gradcheck`: on the bundled bouncing-cube
// scene (corotation, damping, ground contact, 40 steps) every named parameter agrees
// with central differences to 1e-6 and the Taylor remainder decays at second order.
#include "adjoint/scene_gradient_check.h"

#include <gtest/gtest.h>

#include <functional>

#include "forward/errors.h"
#include "scene/scene_loader.h"

namespace softfit {
namespace {

GradientCheckReport check(IntegratorType type, MaterialModel material, const std::string& parameters,
                          const std::string& sceneFile = "gradcheck_cube_bounce.json",
                          const GradientCheckOptions& checkOptions = {},
                          const std::function<void(SceneDescription&)>& edit = {}) {
  SceneDescription description = loadScene(std::string(SOFTFIT_SOURCE_DIR) + "/data/scenes/" + sceneFile);
  if (edit) edit(description);
  description.integrator.type = type;
  description.material.model = material;
  BuiltScene scene = buildScene(description);
  SceneGradientCheckOptions options;
  options.parameters = parseParameterList(parameters);
  options.check = checkOptions;
  const GradientCheckReport report = checkSceneGradient(description, scene, options);
  std::printf("%s %s\n%s", integratorTypeName(type).c_str(), materialModelName(material).c_str(),
              formatGradientCheck(report).c_str());
  return report;
}

TEST(SceneGradientCheck, AllParametersBackwardEulerCorotated) {
  const GradientCheckReport r = check(IntegratorType::BackwardEuler, MaterialModel::Corotated,
                                      "E,nu,density,alpha1,alpha2,gravity,ground,velocity,angular_velocity");
  for (const auto& row : r.rows) EXPECT_TRUE(row.passed) << row.name << " rel. error " << row.relativeError;
  EXPECT_TRUE(r.taylor.passed);
  EXPECT_GE(r.taylor.rates.size(), 3u);
  EXPECT_TRUE(r.passed);
}

TEST(SceneGradientCheck, ThesisNewmarkWarpedCorotation) {
  const GradientCheckReport r = check(IntegratorType::NewmarkTheta, MaterialModel::WarpedCorotated,
                                      "E,nu,density,alpha1,alpha2,ground");
  EXPECT_TRUE(r.passed);
}

// Cut-cell grid (8-node elements with multi-point quadrature, contact at edge crossings
// embedded in cells): the same adjoint, checked the same way.
class GridGradientCheck : public ::testing::TestWithParam<std::pair<IntegratorType, MaterialModel>> {};

TEST_P(GridGradientCheck, ElasticAndContactParametersOnCutCells) {
  // Cut-cell runs are slower: two FD steps and three Taylor halvings keep this test short.
  GradientCheckOptions fast;
  fast.relativeSteps = {1e-5, 1e-6};
  fast.taylorHalvings = 3;
  const GradientCheckReport r = check(GetParam().first, GetParam().second, "E,alpha2,ground_offset",
                                      "gradcheck_sphere_grid.json", fast);
  for (const auto& row : r.rows) EXPECT_TRUE(row.passed) << row.name << " rel. error " << row.relativeError;
  EXPECT_TRUE(r.taylor.passed);
}

// The raw-capture scenes' contact: one point per vertex of the grid's embedded (samples)
// surface, each with its rest area, instead of the lattice edges' crossings. density and
// alpha1 go through the lumped mass, i.e. the cells' quadrature with the volume-fraction
// floor (this sphere's grid has floored sliver cells).
TEST(SceneGradientCheck, GridWithSurfaceContactPoints) {
  GradientCheckOptions fast;
  fast.relativeSteps = {1e-5, 1e-6};
  fast.taylorHalvings = 3;
  const GradientCheckReport r =
      check(IntegratorType::NewmarkTheta, MaterialModel::WarpedCorotated, "E,nu,density,alpha1,ground,velocity",
            "gradcheck_sphere_grid.json", fast, [](SceneDescription& d) {
              d.sdf->surface = SurfaceResolution::Samples;
              d.sdf->contactPoints = GridContactPoints::Surface;
            });
  for (const auto& row : r.rows) EXPECT_TRUE(row.passed) << row.name << " rel. error " << row.relativeError;
  EXPECT_TRUE(r.taylor.passed);
}

INSTANTIATE_TEST_SUITE_P(
    Integrators, GridGradientCheck,
    ::testing::Values(std::pair{IntegratorType::NewmarkTheta, MaterialModel::WarpedCorotated},
                      std::pair{IntegratorType::BackwardEuler, MaterialModel::Corotated},
                      std::pair{IntegratorType::BDF2, MaterialModel::StableNeoHookean},
                      std::pair{IntegratorType::ImplicitMidpoint, MaterialModel::NeoHookean},
                      std::pair{IntegratorType::NewmarkTrapezoid, MaterialModel::Corotated}),
    [](const auto& info) { return integratorTypeName(info.param.first); });

TEST(SceneGradientCheck, PerRegionMaterialParameters) {
  // Heterogeneous body: a stiff, dense region in one half of the cube.
  SceneDescription description =
      loadScene(std::string(SOFTFIT_SOURCE_DIR) + "/data/scenes/gradcheck_cube_bounce.json");
  MaterialRegion stiff;
  stiff.box = {Vec3(-1, -1, -1), Vec3(0.0, 1, 1)};
  stiff.youngs = 9e3;
  stiff.density = 300.0;
  description.material.regions.push_back(stiff);
  BuiltScene scene = buildScene(description);
  SceneGradientCheckOptions options;
  options.parameters = parseParameterList("E@0,E@1,nu@1,density@0,density@1");
  const GradientCheckReport r = checkSceneGradient(description, scene, options);
  std::printf("%s", formatGradientCheck(r).c_str());
  EXPECT_TRUE(r.passed);
  EXPECT_NEAR(r.rows[1].value, 9e3, 1e-9);  // region 1 really is the stiff one
  EXPECT_NEAR(r.rows[0].value, 3e3, 1e-9);
}

TEST(GradientCheck, DetectsAWrongGradient) {
  // A test that cannot fail is a defect: a 0.1% wrong gradient must fail the check.
  auto f = [](const VecX& p) { return std::sin(p[0]) * p[1] * p[1] + std::exp(0.3 * p[0]); };
  VecX p0(2);
  p0 << 0.4, 1.3;
  VecX g(2);
  g << std::cos(0.4) * 1.69 + 0.3 * std::exp(0.12), 2.0 * std::sin(0.4) * 1.3;
  EXPECT_TRUE(checkGradient(f, p0, g, {"a", "b"}).passed);
  VecX wrong = g;
  wrong[1] *= 1.001;
  const GradientCheckReport bad = checkGradient(f, p0, wrong, {"a", "b"});
  EXPECT_FALSE(bad.passed);
  EXPECT_FALSE(bad.rows[1].passed);
  EXPECT_FALSE(bad.taylor.passed);
}

TEST(ParameterSpace, RejectsUnknownNamesAndBadValues) {
  EXPECT_THROW(parseParameterList("E,youngs"), InputError);
  EXPECT_THROW(parseParameterList("alpha1@1"), InputError);
  EXPECT_EQ(parseParameterList("E@2")[0].region, 2);
  EXPECT_THROW(parseParameterList(""), InputError);
  EXPECT_EQ(parseParameterList("gravity,E").size(), 4u);
  // Issue 25: a region index past int was an uncaught std::out_of_range from stoi;
  // a parameter given twice (also through a group) was optimized as two copies.
  EXPECT_THROW(parseParameterList("E@99999999999"), InputError);
  EXPECT_THROW(parseParameterList("E,nu,E"), InputError);
  EXPECT_THROW(parseParameterList("gravity,gravity_y"), InputError);
  EXPECT_THROW(parseParameterList("E,nu,E@1"), InputError);  // overlapping: E covers region 1
  EXPECT_EQ(parseParameterList("E@0,E@1,nu").size(), 3u);    // disjoint regions
}

}  // namespace
TEST(GradientCheck, ConstantLossIsReportedAsConstantNotAsANanRate) {
  // Issue 25: a loss that does not depend on the parameters printed "rate -nan" and FAIL.
  const auto constant = [](const VecX&) { return 3.0; };
  const GradientCheckReport report = checkGradient(constant, VecX::Ones(2), VecX::Zero(2), {"a", "b"}, {});
  EXPECT_TRUE(report.taylor.constant);
  EXPECT_TRUE(report.passed);
  const std::string text = formatGradientCheck(report);
  EXPECT_NE(text.find("constant"), std::string::npos) << text;
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
  // A wrong (non-zero) gradient of the same loss still fails.
  EXPECT_FALSE(checkGradient(constant, VecX::Ones(2), VecX::Ones(2), {"a", "b"}, {}).passed);
}

}  // namespace softfit

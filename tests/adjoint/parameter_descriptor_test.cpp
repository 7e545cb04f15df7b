// The parameter table: one descriptor per kind, unique names, groups, default
// transforms, and every descriptor's get / set through a model.
#include <gtest/gtest.h>

#include <set>

#include "adjoint/parameter_space.h"
#include "forward/errors.h"
#include "forward/mesh/procedural_box.h"
#include "support/box_model.h"

namespace softfit {
namespace {

TEST(ParameterDescriptor, NamesAreUniqueAndFoundAndGroupsExpand) {
  std::set<std::string> names;
  for (const auto& d : parameterDescriptors()) {
    EXPECT_TRUE(names.insert(d.name).second) << d.name;
    EXPECT_EQ(findParameterDescriptor(d.name), &d);
    EXPECT_EQ(parseParameterList(d.name).at(0).descriptor, &d);
  }
  EXPECT_EQ(findParameterDescriptor("youngs"), nullptr);
  for (const char* group : {"gravity", "ground", "velocity", "angular_velocity"})
    EXPECT_EQ(parseParameterList(group).size(), 3u) << group;
  EXPECT_EQ(findParameterDescriptor("E")->transform.kind, ParameterTransform::Kind::Log);
  EXPECT_EQ(findParameterDescriptor("nu")->transform.kind, ParameterTransform::Kind::Logit);
  EXPECT_EQ(findParameterDescriptor("nu")->transform.upper, 0.5);
  EXPECT_EQ(findParameterDescriptor("gravity_y")->transform.kind, ParameterTransform::Kind::Identity);
  EXPECT_EQ(findParameterDescriptor("E")->range.upper, 1e15);
  EXPECT_EQ(findParameterDescriptor("velocity_z")->range.upper, 1e6);
  EXPECT_EQ(findParameterDescriptor("nu")->range.text(), "(-1, 0.5)");
  EXPECT_EQ(findParameterDescriptor("alpha1")->range.text(), "[0, 1e+06]");
}

TEST(ParameterDescriptor, EveryParameterWritesWhatItReads) {
  const TetMesh mesh = makeBoxMesh(Vec3::Zero(), Vec3(1.0, 0.5, 0.5), 2, 1, 1);
  auto model = testing::makeBoxModel(mesh, MaterialModel::Corotated, 1e4, 0.3, 100);
  model->gravity = Vec3(0.1, -9.81, 0.2);
  model->damping = {0.1, 0.01};
  GroundPlane plane;
  plane.normal = Vec3(0.1, 0.2, 1.0).normalized();
  plane.offset = 0.05;
  model->ground = GroundContact(plane, std::vector<int>{0, 1});
  const InitialMotion motion{Vec3(1, 2, 3), Vec3(-1, 0.5, 0.25), restCenterOfMass(*model)};
  std::string all;
  for (const auto& d : parameterDescriptors()) all += std::string(all.empty() ? "" : ",") + d.name;
  ParameterSpace space(parseParameterList(all), motion);
  const VecX p0 = space.values(*model);
  ASSERT_EQ(p0.size(), static_cast<int>(parameterDescriptors().size()));
  // Change every value, write, read back.
  VecX p1 = p0;
  for (int i = 0; i < p1.size(); ++i) p1[i] = p0[i] * (1.0 + 0.01 * (i + 1)) + (p0[i] == 0.0 ? 0.01 : 0.0);
  State initial;
  initial.x = model->restPositions();
  initial.v = VecX::Zero(model->dofCount());
  space.apply(p1, *model, initial);
  const VecX back = space.values(*model);
  for (int i = 0; i < p1.size(); ++i) EXPECT_NEAR(back[i], p1[i], 1e-12 * (1.0 + std::abs(p1[i]))) << space.names()[i];
  // The velocities follow the new rigid motion.
  const Vec3 X = model->restPositions().segment<3>(3 * 5);
  const Vec3 v0(p1[11], p1[12], p1[13]), w(p1[14], p1[15], p1[16]);
  EXPECT_LT((initial.v.segment<3>(3 * 5) - (v0 + w.cross(X - motion.center))).norm(), 1e-12);
}

TEST(ParameterDescriptor, OverlapsAndHugeRegionIndicesAreRefused) {
  EXPECT_THROW(parseParameterList("E,E"), InputError);
  EXPECT_THROW(parseParameterList("E,nu,E@1"), InputError);
  EXPECT_THROW(parseParameterList("E@1,E@1"), InputError);
  EXPECT_THROW(parseParameterList("gravity,gravity_x"), InputError);
  EXPECT_EQ(parseParameterList("E@0,E@1,nu").size(), 3u);  // distinct regions do not overlap
  try {
    parseParameterList("E@99999999999", "--params");  // the caller's option name
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--params"), std::string::npos) << e.what();
  }
  try {
    parseParameterList("nu,E,E@2");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("\"E@2\" overlaps \"E\""), std::string::npos) << e.what();
  }
}

TEST(ParameterDescriptor, GroundParametersNeedAGround) {
  const TetMesh mesh = makeBoxMesh(Vec3::Zero(), Vec3::Ones(), 1, 1, 1);
  auto model = testing::makeBoxModel(mesh, MaterialModel::Corotated, 1e4, 0.3, 100);
  ParameterSpace space(parseParameterList("ground_offset"), {});
  EXPECT_THROW(space.values(*model), InputError);
}

}  // namespace
}  // namespace softfit

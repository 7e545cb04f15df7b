// Analytic SDFs and CSG: values, bounds, parameter validation.
#include "grid/sdf_primitives.h"

#include <gtest/gtest.h>

#include <random>

#include "forward/errors.h"
#include "grid/sdf_csg.h"
#include "grid/sdf_shape.h"

namespace softfit {
namespace {

TEST(SdfPrimitives, ValuesAtKnownPoints) {
  const SphereSdf sphere(Vec3(1, 2, 3), 0.5);
  EXPECT_NEAR(sphere.value(Vec3(1, 2, 3)), -0.5, 1e-15);
  EXPECT_NEAR(sphere.value(Vec3(2, 2, 3)), 0.5, 1e-15);

  const BoxSdf box(Vec3(0, 1, 0), Vec3(1.29, 0.4, 0.8));
  EXPECT_NEAR(box.value(Vec3(0, 1, 0)), -0.4, 1e-15);
  EXPECT_NEAR(box.value(Vec3(2.29, 1, 0)), 1.0, 1e-15);
  EXPECT_NEAR(box.value(Vec3(1.29 + 3, 1.4 + 4, 0)), 5.0, 1e-14);  // outside a corner region

  const TorusSdf torus(Vec3::Zero(), Vec3(0, 0, 2), 1.0, 0.25);  // axis normalized
  EXPECT_NEAR(torus.value(Vec3(1, 0, 0)), -0.25, 1e-15);
  EXPECT_NEAR(torus.value(Vec3(0, 0, 0)), std::sqrt(1.0) - 0.25, 1e-15);
  EXPECT_NEAR(torus.value(Vec3(0, 1, 0.5)), 0.25, 1e-15);

  const CapsuleSdf capsule(Vec3(0, 0, 0), Vec3(2, 0, 0), 0.3);
  EXPECT_NEAR(capsule.value(Vec3(1, 0, 0)), -0.3, 1e-15);
  EXPECT_NEAR(capsule.value(Vec3(1, 1, 0)), 0.7, 1e-15);
  EXPECT_NEAR(capsule.value(Vec3(3, 0, 0)), 0.7, 1e-15);
}

TEST(SdfPrimitives, BoundsContainEveryInsidePoint) {
  std::vector<SdfPtr> shapes = {
      std::make_shared<SphereSdf>(Vec3(0.1, 0.2, 0.3), 0.7),
      std::make_shared<BoxSdf>(Vec3(0, 1, 0), Vec3(1.29, 0.4, 0.8)),
      std::make_shared<TorusSdf>(Vec3(0.2, 0, 0), Vec3(1, 1, 0.3), 0.8, 0.3),
      std::make_shared<CapsuleSdf>(Vec3(-1, 0, 0), Vec3(1, 1, 0.5), 0.25),
  };
  shapes.push_back(std::make_shared<UnionSdf>(std::vector<SdfPtr>{shapes[0], shapes[3]}));
  shapes.push_back(std::make_shared<DifferenceSdf>(std::vector<SdfPtr>{shapes[1], shapes[0]}));
  shapes.push_back(std::make_shared<IntersectionSdf>(std::vector<SdfPtr>{shapes[1], shapes[2]}));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> uniform(-3.0, 3.0);
  for (const auto& s : shapes) {
    const AxisBox b = s->bounds();
    int inside = 0;
    for (int i = 0; i < 20000; ++i) {
      const Vec3 p(uniform(rng), uniform(rng), uniform(rng));
      if (s->value(p) >= 0.0) continue;
      ++inside;
      EXPECT_TRUE((p.array() >= b.min.array() - 1e-12).all() && (p.array() <= b.max.array() + 1e-12).all())
          << s->name() << " inside point outside its bounds";
    }
    EXPECT_GT(inside, 0) << s->name();
  }
}

TEST(SdfCsg, UnionDifferenceIntersection) {
  auto a = std::make_shared<SphereSdf>(Vec3(0, 0, 0), 1.0);
  auto b = std::make_shared<SphereSdf>(Vec3(1.5, 0, 0), 1.0);
  const UnionSdf u({a, b});
  const DifferenceSdf d({a, b});
  const IntersectionSdf i({a, b});
  const Vec3 onlyA(-0.5, 0, 0), both(0.75, 0, 0), onlyB(2.0, 0, 0), none(0, 3, 0);
  EXPECT_LT(u.value(onlyA), 0);
  EXPECT_LT(u.value(onlyB), 0);
  EXPECT_GT(u.value(none), 0);
  EXPECT_LT(d.value(onlyA), 0);
  EXPECT_GT(d.value(both), 0);
  EXPECT_GT(d.value(onlyB), 0);
  EXPECT_LT(i.value(both), 0);
  EXPECT_GT(i.value(onlyA), 0);
  EXPECT_THROW(DifferenceSdf({a}), InputError);
  EXPECT_THROW(UnionSdf({}), InputError);
}

TEST(SdfPrimitives, InvalidParametersAreInputErrors) {
  EXPECT_THROW(SphereSdf(Vec3::Zero(), 0.0), InputError);
  EXPECT_THROW(SphereSdf(Vec3::Zero(), std::nan("")), InputError);
  EXPECT_THROW(SphereSdf(Vec3(std::nan(""), 0, 0), 1.0), InputError);
  EXPECT_THROW(BoxSdf(Vec3::Zero(), Vec3(1, -1, 1)), InputError);
  EXPECT_THROW(TorusSdf(Vec3::Zero(), Vec3::Zero(), 1, 0.2), InputError);
  EXPECT_THROW(CapsuleSdf(Vec3::Zero(), Vec3::Ones(), -1), InputError);
  try {
    SdfShape shape;
    shape.field = "sdf.children[1]";
    shape.type = SdfShape::Type::Sphere;
    shape.radius = -2.0;
    makeSdf(shape);
    FAIL();
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("sdf.children[1]"), std::string::npos) << m;
    EXPECT_NE(m.find("radius"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace softfit

#include <gtest/gtest.h>

#include "forward/errors.h"
#include "forward/materials/arap_material.h"
#include "forward/materials/corotated_material.h"
#include "forward/materials/linear_material.h"
#include "forward/materials/neo_hookean_material.h"
#include "forward/materials/stable_neo_hookean_material.h"
#include "forward/materials/stvk_material.h"
#include "material_test_utils.h"

namespace softfit {
namespace {

TEST(MaterialFactory, NamesRoundTrip) {
  const std::vector<std::string> names = {"linear",      "warped_corotated",   "corotated", "neo_hookean",
                                          "stable_neo_hookean", "stvk", "arap"};
  ASSERT_EQ(names.size(), test::allModels().size());
  for (size_t k = 0; k < names.size(); ++k) {
    EXPECT_EQ(parseMaterialModel(names[k]), test::allModels()[k]);
    EXPECT_EQ(materialModelName(test::allModels()[k]), names[k]);
  }
}

TEST(MaterialFactory, UnknownNameListsValidNames) {
  for (const char* bad : {"neohookean", "Linear", "", "svk"}) {
    try {
      parseMaterialModel(bad, "bodies[1].material.model");
      FAIL() << bad;
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("bodies[1].material.model"), std::string::npos) << msg;
      EXPECT_NE(msg.find("'" + std::string(bad) + "'"), std::string::npos) << msg;
      for (MaterialModel m : test::allModels())
        EXPECT_NE(msg.find(materialModelName(m)), std::string::npos) << msg;
    }
  }
}

TEST(MaterialFactory, MakesTheRightClass) {
  EXPECT_NE(dynamic_cast<LinearMaterial*>(makeMaterial(MaterialModel::Linear).get()), nullptr);
  EXPECT_NE(dynamic_cast<LinearMaterial*>(makeMaterial(MaterialModel::WarpedCorotated).get()), nullptr);
  EXPECT_NE(dynamic_cast<CorotatedMaterial*>(makeMaterial(MaterialModel::Corotated).get()), nullptr);
  EXPECT_NE(dynamic_cast<NeoHookeanMaterial*>(makeMaterial(MaterialModel::NeoHookean).get()), nullptr);
  EXPECT_NE(dynamic_cast<StableNeoHookeanMaterial*>(makeMaterial(MaterialModel::StableNeoHookean).get()), nullptr);
  EXPECT_NE(dynamic_cast<StVKMaterial*>(makeMaterial(MaterialModel::StVK).get()), nullptr);
  EXPECT_NE(dynamic_cast<ArapMaterial*>(makeMaterial(MaterialModel::ARAP).get()), nullptr);
}

}  // namespace
}  // namespace softfit

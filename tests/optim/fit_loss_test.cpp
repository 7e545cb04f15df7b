// The fit assembly's loss choice (optim/fit_loss.h): the point cost `auto` picks, the
// noise correction (closest-point cost only), the frame stride, the observation folder
// kinds and their errors.
#include "optim/fit_loss.h"

#include <gtest/gtest.h>

#include "forward/mesh/temp_directory.h"
#include "observations/capture_io.h"
#include "observations/observations_test_support.h"
#include "scene/scene_loader.h"

namespace softfit {
namespace {

using testing::expectInputError;

const std::string kCapture = std::string(SOFTFIT_SOURCE_DIR) + "/data/captures/tiny";  // dt 0.04, 3 frames
const std::string kScene = std::string(SOFTFIT_SOURCE_DIR) + "/data/scenes/gradcheck_cube_bounce.json";

TEST(FitLoss, AutoPointCostIsTheGridCostUnlessNoiseIsCorrected) {
  EXPECT_EQ(resolvePointCost("auto", true, 0.0, 0), "sdf");
  EXPECT_EQ(resolvePointCost("auto", true, 0.01, 0), "closest");  // the noise correction is closest-point only
  EXPECT_EQ(resolvePointCost("auto", true, 0.01, 2), "sdf");      // with the bootstrap instead
  EXPECT_EQ(resolvePointCost("auto", false, 0.0, 0), "closest");
  EXPECT_EQ(resolvePointCost("auto", false, 0.01, 2), "closest");
  EXPECT_EQ(resolvePointCost("sdf", false, 0.0, 0), "sdf");  // explicit names pass through
}

TEST(FitLoss, NoiseCorrectionOnlyForTheClosestPointCost) {
  const Capture capture = loadCapture(kCapture);
  FitLossOptions options;
  options.huber = 0.2;
  options.noiseSigma = 0.003;
  const PointCloudLossOptions closest = pointLossOptions(capture, 0.01, "closest", options);
  EXPECT_EQ(closest.stride, 4);
  EXPECT_EQ(closest.huberDelta, 0.2);
  EXPECT_TRUE(closest.averageOverPoints);
  EXPECT_EQ(closest.noiseSigma, 0.003);
  const PointCloudLossOptions sdf = pointLossOptions(capture, 0.02, "sdf", options);
  EXPECT_EQ(sdf.stride, 2);
  EXPECT_EQ(sdf.noiseSigma, 0.0);
  expectInputError([&] { pointLossOptions(capture, 0.03, "closest", options); }, {kCapture, "integer multiple"});
}

TEST(FitLoss, ReadsACaptureFolderWithTheSceneCost) {
  const SceneDescription description = loadScene(kScene);
  const BuiltScene scene = buildScene(description);
  FitLossOptions options;
  options.noiseSigma = 0.001;
  const FitObservations o = loadFitObservations(kCapture, scene, 0.01, options);
  ASSERT_TRUE(o.capture);
  ASSERT_NE(o.pointLoss, nullptr);
  EXPECT_EQ(o.loss.get(), o.pointLoss);
  EXPECT_EQ(o.cost, "closest");  // a tet scene
  EXPECT_EQ(o.frames, 3);
  EXPECT_EQ(o.lossOptions.stride, 4);
  EXPECT_EQ(o.lossOptions.noiseSigma, 0.001);
  EXPECT_EQ(o.steps, 8);  // frames 0, 1, 2 at steps 0, 4, 8
  EXPECT_EQ(o.pointLossOf(*o.capture)->lastStep(), o.steps);

  options.pointCost = "sdf";
  expectInputError([&] { loadFitObservations(kCapture, scene, 0.01, options); }, {"point_cost sdf", "grid"});
  options.pointCost = "nearest";
  expectInputError([&] { loadFitObservations(kCapture, scene, 0.01, options); }, {"point_cost", "nearest"});
  options.names.pointCost = "--point-cost";
  expectInputError([&] { loadFitObservations(kCapture, scene, 0.01, options); }, {"--point-cost = \"nearest\""});
}

TEST(FitLoss, UnknownLossKindNamesTheField) {
  FitLossOptions options;
  options.loss = "pixels";
  const BuiltScene scene;
  expectInputError([&] { loadFitObservations(kCapture, scene, 0.01, options); },
                   {"loss = \"pixels\"", "points, displacements"});
  options.names.loss = "--loss";  // the caller's own option name
  expectInputError([&] { loadFitObservations(kCapture, scene, 0.01, options); }, {"--loss = \"pixels\""});
}

TEST(FitLoss, AutoReadsDisplacementsWithoutACapture) {
  TempDirectory dir("softfit-fit-loss-");
  const SceneDescription description = loadScene(kScene);
  const BuiltScene scene = buildScene(description);
  FitLossOptions options;
  // No capture.json: auto reads displacements.json, which is missing here.
  expectInputError([&] { loadFitObservations(dir.path(), scene, 0.01, options); }, {"displacements.json"});
}

}  // namespace
}  // namespace softfit

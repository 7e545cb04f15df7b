// The CUDA backend on a real GPU against the CPU NewmarkThetaIntegrator (states and
// adjoint products, relative 1e-8 in double) on the clamped tet box, the dropped tet box
// and the cut-cell grid scene; run-to-run bitwise reproducibility; agreement with the
// host emulation of the same kernels. Every test skips when no CUDA device is usable.
#include "cuda/cuda_device.h"
#include "newmark_scenes.h"

namespace softfit::testing {
namespace {

#define SKIP_WITHOUT_GPU()                                                                   \
  do {                                                                                       \
    std::string why;                                                                         \
    if (!cudaDeviceAvailable(&why)) GTEST_SKIP() << "no GPU, CUDA test skipped (" << why << ")"; \
  } while (0)

TEST(CudaNewmark, DeviceQueryAnswers) {
  std::string why;
  const bool available = cudaDeviceAvailable(&why);
  EXPECT_FALSE(why.empty());
  if (!available) {
    EXPECT_THROW(CudaNewmarkIntegrator{newmarkSettings()}, SolveError);
    GTEST_SKIP() << "no GPU: " << why;
  }
}

TEST(CudaNewmark, ClampedBoxMatchesCpu) {
  SKIP_WITHOUT_GPU();
  NewmarkScene scene = clampedBoxScene();
  CudaNewmarkIntegrator gpu(newmarkSettings());
  const std::vector<State> states = compareSteps(scene, gpu, 1e-8);
  for (int k : {0, scene.steps - 1}) compareAdjointStep(scene, gpu, states, k, 1e-8);
}

TEST(CudaNewmark, DroppedBoxWithContactMatchesCpu) {
  SKIP_WITHOUT_GPU();
  NewmarkScene scene = droppedBoxScene(MaterialModel::WarpedCorotated);
  CudaNewmarkIntegrator gpu(newmarkSettings());
  const std::vector<State> states = compareSteps(scene, gpu, 1e-8);
  EXPECT_GT(contactsNear(scene, states, 0.02), 0);
  for (int k : {1, scene.steps - 1}) compareAdjointStep(scene, gpu, states, k, 1e-8);
}

TEST(CudaNewmark, CutCellGridWithContactMatchesCpu) {
  SKIP_WITHOUT_GPU();
  NewmarkScene scene = droppedGridScene();
  CudaNewmarkIntegrator gpu(newmarkSettings());
  const std::vector<State> states = compareSteps(scene, gpu, 1e-8);
  EXPECT_GT(contactsNear(scene, states, 0.02), 0);
  for (int k : {2, scene.steps - 1}) compareAdjointStep(scene, gpu, states, k, 1e-8);
}

TEST(CudaNewmark, RunsAreBitwiseReproducibleAndMatchHostEmulation) {
  SKIP_WITHOUT_GPU();
  NewmarkScene scene = droppedGridScene();
  CudaNewmarkOptions host;
  host.execution = CudaNewmarkOptions::Execution::HostEmulation;
  CudaNewmarkIntegrator a(newmarkSettings()), b(newmarkSettings()), h(newmarkSettings(), host);
  State sa = scene.initial, sb = scene.initial, sh = scene.initial;
  for (int n = 0; n < scene.steps; ++n) {
    sa = a.step(*scene.model, sa, nullptr, scene.dt);
    sb = b.step(*scene.model, sb, nullptr, scene.dt);
    sh = h.step(*scene.model, sh, nullptr, scene.dt);
    ASSERT_TRUE(sa.x == sb.x && sa.v == sb.v) << "step " << n << " differs between two GPU runs";
    EXPECT_EQ(a.lastStep().iterations, b.lastStep().iterations);
  }
  // Same kernels and reduction order; only libm vs CUDA exp/log1p differ (contact).
  EXPECT_LT(relativeDifference(sa.x - scene.model->restPositions(), sh.x - scene.model->restPositions()), 1e-10);
}

TEST(CudaNewmark, SinglePrecisionTracksDouble) {
  SKIP_WITHOUT_GPU();
  NewmarkScene scene = clampedBoxScene();
  scene.steps = 3;
  CudaNewmarkOptions options;
  options.precision = CudaNewmarkOptions::Precision::Float;
  CudaNewmarkIntegrator gpu(newmarkSettings(), options);
  compareSteps(scene, gpu, 2e-4);
}

}  // namespace
}  // namespace softfit::testing

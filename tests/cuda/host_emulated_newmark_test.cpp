// The GPU Newmark kernels run serially on the host (CudaNewmarkIntegrator with
// Execution::HostEmulation) against the CPU NewmarkThetaIntegrator: states and every
// adjoint product on a clamped tet box (warped corotation, springs, Dirichlet), a tet box
// dropped on a tilted ground (linear material, contact) and a cut-cell grid dropped on
// the ground (warped, edge-crossing contact). Runs without a GPU.
#include "newmark_scenes.h"

namespace softfit::testing {
namespace {

CudaNewmarkOptions emulated(CudaNewmarkOptions::Precision precision = CudaNewmarkOptions::Precision::Double) {
  CudaNewmarkOptions o;
  o.execution = CudaNewmarkOptions::Execution::HostEmulation;
  o.precision = precision;
  return o;
}

TEST(HostEmulatedNewmark, ClampedBoxMatchesCpu) {
  NewmarkScene scene = clampedBoxScene();
  CudaNewmarkIntegrator gpu(newmarkSettings(), emulated());
  const std::vector<State> states = compareSteps(scene, gpu, 1e-8);
  EXPECT_GT(gpu.lastStep().iterations, 1);
  // It moved, and rotated elements (so the warped path is exercised).
  EXPECT_GT((states.back().x - scene.model->restPositions()).cwiseAbs().maxCoeff(), 1e-3);
  for (int k : {0, scene.steps - 1}) compareAdjointStep(scene, gpu, states, k, 1e-8);
}

TEST(HostEmulatedNewmark, DroppedBoxWithContactMatchesCpu) {
  NewmarkScene scene = droppedBoxScene();
  CudaNewmarkIntegrator gpu(newmarkSettings(), emulated());
  const std::vector<State> states = compareSteps(scene, gpu, 1e-8);
  EXPECT_GT(contactsNear(scene, states, 0.02), 0) << "the box never came near the ground";
  for (int k : {1, scene.steps - 1}) compareAdjointStep(scene, gpu, states, k, 1e-8);
}

TEST(HostEmulatedNewmark, CutCellGridWithContactMatchesCpu) {
  NewmarkScene scene = droppedGridScene();
  CudaNewmarkIntegrator gpu(newmarkSettings(), emulated());
  const std::vector<State> states = compareSteps(scene, gpu, 1e-8);
  EXPECT_GT(contactsNear(scene, states, 0.02), 0) << "the grid never came near the ground";
  for (int k : {2, scene.steps - 1}) compareAdjointStep(scene, gpu, states, k, 1e-8);
}

TEST(HostEmulatedNewmark, SinglePrecisionTracksDouble) {
  NewmarkScene scene = clampedBoxScene();
  scene.steps = 3;
  CudaNewmarkIntegrator gpu(newmarkSettings(), emulated(CudaNewmarkOptions::Precision::Float));
  compareSteps(scene, gpu, 2e-4);
}

TEST(HostEmulatedNewmark, RejectsOtherIntegratorsAndBadTheta) {
  IntegratorSettings settings = newmarkSettings();
  settings.type = IntegratorType::BackwardEuler;
  EXPECT_THROW(makeCudaIntegrator(settings, emulated()), InputError);
  settings = newmarkSettings();
  settings.theta = 1.0;
  EXPECT_THROW((CudaNewmarkIntegrator{settings, emulated()}), InputError);
}

}  // namespace
}  // namespace softfit::testing

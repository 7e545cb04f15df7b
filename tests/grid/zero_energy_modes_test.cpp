// A free cut cell has exactly the 6 rigid-body zero-energy modes: full cells (2x2x2
// Gauss) and partial cells (clipped, compressed rule), for several cut shapes.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cstdio>

#include "forward/energies/elastic_energy.h"
#include "grid/cut_cell_grid.h"
#include "grid/trilinear_hex.h"

namespace softfit {
namespace {

struct CellCase {
  const char* name;
  CellSamples samples;
};

std::array<double, 8> cornerValues(const std::function<double(const Vec3&)>& phi) {
  std::array<double, 8> v;
  for (int c = 0; c < 8; ++c) v[c] = phi(hexCorner(c));
  return v;
}

CellSamples refinedSamples(const std::function<double(const Vec3&)>& phi, int s) {
  CellSamples samples;
  samples.subdivision = s;
  for (int k = 0; k <= s; ++k)
    for (int j = 0; j <= s; ++j)
      for (int i = 0; i <= s; ++i) samples.values.push_back(phi(Vec3(i, j, k) / s));
  return samples;
}

TEST(ZeroEnergyModes, FreeCellsHaveExactlySixRigidModes) {
  const auto plane = [](double offset) {
    return [offset](const Vec3& x) { return Vec3(0.3, 0.5, 0.8).normalized().dot(x) - offset; };
  };
  const auto sphere = [](const Vec3& c, double r) { return [c, r](const Vec3& x) { return (x - c).norm() - r; }; };
  std::vector<CellCase> cases = {
      {"full", CellSamples::fromCorners(cornerValues([](const Vec3&) { return -1.0; }))},
      {"half (plane)", CellSamples::fromCorners(cornerValues(plane(0.8)))},
      {"small corner (plane, 5%)", CellSamples::fromCorners(cornerValues(plane(0.33)))},
      {"tiny corner (plane, 0.2%)", CellSamples::fromCorners(cornerValues(plane(0.12)))},
      {"large (plane, 95%)", CellSamples::fromCorners(cornerValues(plane(1.3)))},
      {"axis-aligned slab 30%", CellSamples::fromCorners(cornerValues([](const Vec3& x) { return x[1] - 0.3; }))},
      {"sphere corner, refined", refinedSamples(sphere(Vec3(0, 0, 0), 0.7), 3)},
      {"sphere cap, refined", refinedSamples(sphere(Vec3(0.5, 0.5, -0.6), 0.9), 3)},
      {"saddle, refined", refinedSamples([](const Vec3& x) { return (x[0] - 0.5) * (x[1] - 0.5) * 4 + x[2] - 0.5; }, 3)},
  };
  const double h = 0.1;
  const std::array<int, 8> nodes = {0, 1, 2, 3, 4, 5, 6, 7};
  VecX rest(24);
  for (int c = 0; c < 8; ++c) rest.segment<3>(3 * c) = h * hexCorner(c);
  for (const MaterialModel model : {MaterialModel::Linear, MaterialModel::StableNeoHookean, MaterialModel::Corotated}) {
    for (const CellCase& c : cases) {
      Element element = makeCutCellElement(nodes, c.samples, h);
      const double fraction = element.restVolume() / (h * h * h);
      const ElasticEnergy energy({element}, model, {lameFromYoungPoisson(1e5, 0.3)});
      const Eigen::SelfAdjointEigenSolver<MatX> eigen(energy.elementHessian(0, rest));
      const VecX lambda = eigen.eigenvalues();
      const double largest = lambda.maxCoeff();
      int zero = 0;
      for (int i = 0; i < lambda.size(); ++i) zero += std::abs(lambda[i]) < 1e-10 * largest;
      if (model == MaterialModel::Linear)
        std::printf("%-26s volume fraction %.4f, %zu points: %d zero eigenvalues, lambda_7 / lambda_max = %.3e\n", c.name,
                    fraction, element.quadrature.size(), zero, lambda[6] / largest);
      EXPECT_EQ(zero, 6) << c.name << " " << materialModelName(model);
      EXPECT_GT(lambda[6], 1e-8 * largest) << c.name;
      EXPECT_GT(lambda.minCoeff(), -1e-10 * largest) << c.name;  // PSD at rest
    }
  }
}

}  // namespace
}  // namespace softfit

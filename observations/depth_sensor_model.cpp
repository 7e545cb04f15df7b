#include "observations/depth_sensor_model.h"

#include <algorithm>
#include <cmath>

#include "forward/errors.h"

namespace softfit {

DepthSensorModel DepthSensorModel::kinectV1() {
  DepthSensorModel m;
  m.kind = DepthSensorKind::KinectV1;
  m.axialSigmaConstant = 0.0012;
  m.axialSigmaQuadratic = 0.0019;
  m.axialSigmaOffset = 0.4;
  m.lateralSigmaPixels = 0.8;
  m.lateralAngleGain = 0.035;
  m.disparityStepPixels = 0.125;
  m.minRangeMetres = 0.4;
  m.maxRangeMetres = 4.0;
  m.maxIncidenceDegrees = 75.0;
  m.dropoutProbability = 0.01;
  m.flyingPixelProbability = 0.5;
  return m;
}

DepthSensorModel DepthSensorModel::make(DepthSensorKind kind) {
  return kind == DepthSensorKind::KinectV1 ? kinectV1() : ideal();
}

bool DepthSensorModel::isIdeal() const {
  return axialSigmaConstant == 0.0 && axialSigmaQuadratic == 0.0 && lateralSigmaPixels == 0.0 &&
         lateralAngleGain == 0.0 && disparityStepPixels == 0.0 && minRangeMetres == 0.0 && maxRangeMetres == 0.0 &&
         maxIncidenceDegrees >= 90.0 && dropoutProbability == 0.0 && flyingPixelProbability == 0.0;
}

double DepthSensorModel::axialSigma(double z) const {
  const double e = z - axialSigmaOffset;
  return axialSigmaConstant + axialSigmaQuadratic * e * e;
}

double DepthSensorModel::quantize(double z) const {
  if (disparityStepPixels == 0.0 || !(z > 0.0)) return z;
  const double fb = disparityFocalPixels * baselineMetres;
  const double steps = std::round(fb / (z * disparityStepPixels));
  return steps >= 1.0 ? fb / (steps * disparityStepPixels) : 0.0;  // beyond the last step: no return
}

double DepthSensorModel::quantizationStep(double z) const {
  if (disparityStepPixels == 0.0 || !(z > 0.0)) return 0.0;
  return z * z * disparityStepPixels / (disparityFocalPixels * baselineMetres);
}

double DepthSensorModel::lateralSigma(double thetaRadians, double fx) const {
  const double theta = std::min(thetaRadians, maxIncidenceDegrees * M_PI / 180.0);
  const double rest = M_PI / 2.0 - theta;
  const double px = lateralSigmaPixels + (rest > 0.0 ? lateralAngleGain * theta / rest : 0.0);
  return px * fx / lateralReferenceFocalPixels;
}

void validateDepthSensorModel(const DepthSensorModel& m, const std::string& context) {
  const auto nonNegative = [&](double x, const char* name) {
    if (!(x >= 0.0) || !std::isfinite(x)) throw InputError(context + ": " + name + " must be >= 0 and finite");
  };
  nonNegative(m.axialSigmaConstant, "axial sigma constant");
  nonNegative(m.axialSigmaQuadratic, "axial sigma quadratic");
  nonNegative(m.lateralSigmaPixels, "lateral sigma");
  nonNegative(m.lateralAngleGain, "lateral angle gain");
  nonNegative(m.disparityStepPixels, "disparity step");
  nonNegative(m.minRangeMetres, "minimum range");
  nonNegative(m.maxRangeMetres, "maximum range");
  nonNegative(m.discontinuityRatio, "discontinuity ratio");
  if (!std::isfinite(m.axialSigmaOffset)) throw InputError(context + ": axial sigma offset must be finite");
  if (!(m.lateralReferenceFocalPixels > 0.0) || !(m.disparityFocalPixels > 0.0) || !(m.baselineMetres > 0.0))
    throw InputError(context + ": focal lengths and baseline must be positive");
  if (m.maxRangeMetres > 0.0 && !(m.maxRangeMetres > m.minRangeMetres))
    throw InputError(context + ": maximum range must exceed the minimum range");
  if (!(m.maxIncidenceDegrees > 0.0 && m.maxIncidenceDegrees <= 90.0))
    throw InputError(context + ": maximum incidence angle must be in (0, 90] degrees");
  for (const double p : {m.dropoutProbability, m.flyingPixelProbability})
    if (!(p >= 0.0 && p <= 1.0)) throw InputError(context + ": probabilities must be in [0, 1]");
}

namespace {

// Pixel offsets of the 4-neighbourhood, in a fixed order.
constexpr int kNeighbours[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

bool isJump(double a, double b, double ratio) { return std::abs(a - b) > ratio * std::min(a, b); }

// Effect 1: a pixel next to a jump or a hole (and measured, or next to a measurement).
bool atDiscontinuity(const DepthMap& map, int u, int v, double ratio) {
  const double z = map.at(u, v);
  for (const auto& n : kNeighbours) {
    const int a = u + n[0], b = v + n[1];
    if (a < 0 || b < 0 || a >= map.width || b >= map.height) continue;
    const double w = map.at(a, b);
    if ((z > 0.0) != (w > 0.0)) return true;
    if (z > 0.0 && isJump(z, w, ratio)) return true;
  }
  return false;
}

DepthMap lateralNoise(const DepthSensorModel& m, const Camera& camera, const SurfaceView& view, GaussianNoise& rng) {
  const DepthMap& ideal = view.depth;
  DepthMap out = ideal;
  if (m.lateralSigmaPixels == 0.0 && m.lateralAngleGain == 0.0) return out;
  const double fx = camera.intrinsics.fx;
  for (int v = 0; v < ideal.height; ++v)
    for (int u = 0; u < ideal.width; ++u) {
      if (!atDiscontinuity(ideal, u, v, m.discontinuityRatio)) continue;
      const std::size_t i = static_cast<std::size_t>(v) * ideal.width + u;
      const double c = view.cosIncidence[i];
      const double theta = ideal.depth[i] > 0.0 ? std::acos(std::clamp(c, 0.0, 1.0)) : 0.0;
      const double sigma = m.lateralSigma(theta, fx);
      const double gu = rng.next(), gv = rng.next();
      const int a = std::clamp(static_cast<int>(std::lround(u + sigma * gu)), 0, ideal.width - 1);
      const int b = std::clamp(static_cast<int>(std::lround(v + sigma * gv)), 0, ideal.height - 1);
      out.depth[i] = ideal.at(a, b);
    }
  return out;
}

void flyingPixels(const DepthSensorModel& m, DepthMap& map, GaussianNoise& rng) {
  if (m.flyingPixelProbability == 0.0) return;
  const DepthMap before = map;
  for (int v = 0; v < map.height; ++v)
    for (int u = 0; u < map.width; ++u) {
      const double z = before.at(u, v);
      if (!(z > 0.0)) continue;
      double back = 0.0;
      for (const auto& n : kNeighbours) {
        const int a = u + n[0], b = v + n[1];
        if (a < 0 || b < 0 || a >= map.width || b >= map.height) continue;
        const double w = before.at(a, b);
        if (w > z && isJump(z, w, m.discontinuityRatio)) back = std::max(back, w);
      }
      if (back == 0.0) continue;
      if (rng.uniform() > m.flyingPixelProbability) continue;
      map.at(u, v) = z + rng.uniform() * (back - z);
    }
}

}  // namespace

DepthMap applyDepthSensor(const DepthSensorModel& m, const Camera& camera, const SurfaceView& view,
                          GaussianNoise& rng) {
  const DepthMap& ideal = view.depth;
  if (ideal.width != camera.intrinsics.width || ideal.height != camera.intrinsics.height ||
      view.cosIncidence.size() != ideal.depth.size())
    throw InputError("depth sensor: the view does not match the camera image size");
  if (m.isIdeal()) return ideal;
  validateDepthSensorModel(m);

  DepthMap map = lateralNoise(m, camera, view, rng);  // 1
  flyingPixels(m, map, rng);                          // 2
  const double cosMax = std::cos(m.maxIncidenceDegrees * M_PI / 180.0);
  for (std::size_t i = 0; i < map.depth.size(); ++i) {  // 3 and 4
    double& z = map.depth[i];
    if (!(z > 0.0)) continue;
    const double sigma = m.axialSigma(z), step = m.quantizationStep(z);
    const double gaussian = std::sqrt(std::max(0.0, sigma * sigma - step * step / 12.0));
    if (gaussian > 0.0) z += gaussian * rng.next();
    z = z > 0.0 ? m.quantize(z) : 0.0;
  }
  for (std::size_t i = 0; i < map.depth.size(); ++i) {  // 5
    double& z = map.depth[i];
    if (!(z > 0.0)) continue;
    const bool outOfRange = z < m.minRangeMetres || (m.maxRangeMetres > 0.0 && z > m.maxRangeMetres);
    const bool grazing = m.maxIncidenceDegrees < 90.0 && view.cosIncidence[i] < cosMax;
    if (outOfRange || grazing) {
      z = 0.0;
      continue;
    }
    if (m.dropoutProbability > 0.0 && rng.uniform() <= m.dropoutProbability) z = 0.0;
  }
  return map;
}

}  // namespace softfit

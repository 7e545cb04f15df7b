#include "observations/depth_sensor_json.h"

#include <utility>
#include <vector>

#include "forward/errors.h"
#include "forward/io/json_fields.h"

namespace softfit {

namespace {

// The overridable fields, in DepthSensorModel's order.
std::vector<std::pair<const char*, double DepthSensorModel::*>> sensorFields() {
  return {{"axial_sigma_constant", &DepthSensorModel::axialSigmaConstant},
          {"axial_sigma_quadratic", &DepthSensorModel::axialSigmaQuadratic},
          {"axial_sigma_offset", &DepthSensorModel::axialSigmaOffset},
          {"lateral_sigma_pixels", &DepthSensorModel::lateralSigmaPixels},
          {"lateral_angle_gain", &DepthSensorModel::lateralAngleGain},
          {"lateral_reference_focal_pixels", &DepthSensorModel::lateralReferenceFocalPixels},
          {"disparity_step_pixels", &DepthSensorModel::disparityStepPixels},
          {"disparity_focal_pixels", &DepthSensorModel::disparityFocalPixels},
          {"baseline_metres", &DepthSensorModel::baselineMetres},
          {"min_range_metres", &DepthSensorModel::minRangeMetres},
          {"max_range_metres", &DepthSensorModel::maxRangeMetres},
          {"max_incidence_degrees", &DepthSensorModel::maxIncidenceDegrees},
          {"dropout_probability", &DepthSensorModel::dropoutProbability},
          {"flying_pixel_probability", &DepthSensorModel::flyingPixelProbability},
          {"discontinuity_ratio", &DepthSensorModel::discontinuityRatio}};
}

DepthSensorModel presetNamed(const std::string& name, const std::string& field) {
  if (name == "ideal") return DepthSensorModel::ideal();
  if (name == "kinect") return DepthSensorModel::kinectV1();
  throw InputError(field + " = \"" + name + "\": unknown sensor (valid: ideal, kinect, or a sensor JSON file)");
}

bool looksLikeFile(const std::string& text) {
  return text.size() > 5 && text.compare(text.size() - 5, 5, ".json") == 0;
}

}  // namespace

DepthSensorModel readDepthSensorModel(const std::string& path) {
  const nlohmann::json document = readJsonFile(path);
  if (!document.is_object()) throw InputError(path + ": a sensor file must hold a JSON object");
  const JsonFields fields(document, "");
  const auto table = sensorFields();
  std::vector<const char*> allowed = {"preset", "description"};
  for (const auto& f : table) allowed.push_back(f.first);
  try {
    fields.allowOnly(allowed);
    DepthSensorModel model = presetNamed(fields.string("preset", "ideal"), "preset");
    for (const auto& [key, member] : table) model.*member = fields.number(key, model.*member);
    validateDepthSensorModel(model, "sensor");
    return model;
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

nlohmann::json depthSensorModelJson(const DepthSensorModel& model) {
  nlohmann::json out = {{"preset", model.kind == DepthSensorKind::KinectV1 ? "kinect" : "ideal"}};
  for (const auto& [key, member] : sensorFields()) out[key] = model.*member;
  return out;
}

DepthSensorModel depthSensorModelFromOption(const std::string& nameOrFile, const std::string& field) {
  if (looksLikeFile(nameOrFile)) {
    try {
      return readDepthSensorModel(nameOrFile);
    } catch (const InputError& e) {
      throw InputError(field + ": " + e.what());
    }
  }
  return presetNamed(nameOrFile, field);
}

}  // namespace softfit

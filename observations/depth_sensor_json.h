#pragma once
// Depth sensor models by name or from a JSON file, for `softfit synth --sensor` and
// `softfit reconstruct --sensor` (observations/README.md, "Sensor files").
//
//   "ideal" | "kinect"        the presets of depth_sensor_model.h
//   path/to/sensor.json       {"preset": "kinect", "lateral_sigma_pixels": 0, ...}
//
// A file starts from its "preset" (default "ideal") and overrides any of the fields of
// DepthSensorModel under their snake_case names (axial_sigma_constant, ...,
// discontinuity_ratio). Unknown keys, wrong types and invalid values are InputErrors
// naming the file and the field.
#include <nlohmann/json.hpp>
#include <string>

#include "observations/depth_sensor_model.h"

namespace softfit {

// `field` names the option in error messages (e.g. "--sensor").
DepthSensorModel depthSensorModelFromOption(const std::string& nameOrFile, const std::string& field);
DepthSensorModel readDepthSensorModel(const std::string& path);
// Every field of `model` under its file key, with "preset" = the model's kind: a file
// holding this object reads back as the same model.
nlohmann::json depthSensorModelJson(const DepthSensorModel& model);

}  // namespace softfit

#pragma once
// Cameras in JSON. One camera is an object
//   {"name": "cam0", "fx": 120, "fy": 120, "cx": 49.5, "cy": 49.5, "width": 100, "height": 100,
//    "camera_to_world": [[r00, r01, r02, tx], [r10, r11, r12, ty], [r20, r21, r22, tz], [0, 0, 0, 1]]}
// or, instead of "camera_to_world", "look_at": {"eye": [..], "target": [..], "up": [0, 1, 0]}
// ("up" defaults to +y). Conventions: observations/camera.h. A cams.json file is an
// array of such objects, or {"cameras": [...]}.
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "observations/camera.h"

namespace softfit {

// Parses the camera keys of `j` (field path `field` for messages). With requireSize,
// width and height are required; with requirePose, camera_to_world or look_at is
// required (otherwise the identity pose is used). Keys other than the camera keys and
// `extraKeys` are rejected.
Camera cameraFromJson(const nlohmann::json& j, const std::string& field, bool requireSize, bool requirePose,
                      std::initializer_list<const char*> extraKeys = {});

// The camera as JSON (name when not empty, intrinsics, camera_to_world).
nlohmann::json cameraToJson(const Camera& camera);

// Throws InputError naming `path` (and the camera, e.g. "cameras[2].fx") for a missing
// file, invalid JSON or an invalid camera. Every camera needs a size and a pose.
std::vector<Camera> readCameras(const std::string& path);
void writeCameras(const std::string& path, const std::vector<Camera>& cameras);

}  // namespace softfit

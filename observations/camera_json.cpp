#include "observations/camera_json.h"

#include <vector>

#include "forward/errors.h"
#include "forward/io/text_output.h"
#include "forward/io/json_fields.h"
#include "observations/observation_json.h"

namespace softfit {

Camera cameraFromJson(const nlohmann::json& j, const std::string& field, bool requireSize, bool requirePose,
                      std::initializer_list<const char*> extraKeys) {
  const JsonFields f(j, field);
  static const char* const kCameraKeys[] = {"name", "fx", "fy", "cx", "cy", "width", "height", "camera_to_world",
                                            "look_at"};
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (const char* k : kCameraKeys) ok = ok || it.key() == k;
    for (const char* k : extraKeys) ok = ok || it.key() == k;
    if (!ok) {
      std::string valid;
      for (const char* k : kCameraKeys) valid += std::string(valid.empty() ? "" : ", ") + k;
      for (const char* k : extraKeys) valid += std::string(", ") + k;
      throw InputError("unknown key \"" + f.field(it.key()) + "\" (valid keys here: " + valid + ")");
    }
  }
  CameraIntrinsics k;
  k.fx = f.number("fx");
  k.fy = f.number("fy");
  k.cx = f.number("cx");
  k.cy = f.number("cy");
  k.width = requireSize ? f.integer("width") : f.integer("width", 0);
  k.height = requireSize ? f.integer("height") : f.integer("height", 0);
  validateIntrinsics(k, field.empty() ? std::string("camera") : field, requireSize);

  if (f.has("camera_to_world") && f.has("look_at"))
    throw InputError(field + ": give either \"camera_to_world\" or \"look_at\", not both");
  Camera cam;
  cam.intrinsics = k;
  if (f.has("camera_to_world")) {
    const Eigen::Matrix4d m = jsonMatrix4(j.at("camera_to_world"), f.field("camera_to_world"));
    if (m(3, 0) != 0.0 || m(3, 1) != 0.0 || m(3, 2) != 0.0 || m(3, 3) != 1.0)
      throw InputError(f.field("camera_to_world") + ": the last row must be [0, 0, 0, 1]");
    cam.rotation = m.topLeftCorner<3, 3>();
    cam.position = m.topRightCorner<3, 1>();
    validatePose(cam.rotation, cam.position, f.field("camera_to_world"));
  } else if (f.has("look_at")) {
    const JsonFields l = f.object("look_at");
    l.allowOnly({"eye", "target", "up"});
    cam = lookAtCamera(k, l.vec3("eye"), l.vec3("target"), l.vec3("up", Vec3(0, 1, 0)), l.path());
  } else if (requirePose) {
    throw InputError((field.empty() ? std::string("camera") : field) +
                     ": missing the pose (\"camera_to_world\" or \"look_at\")");
  }
  cam.name = f.string("name", "");
  return cam;
}

nlohmann::json cameraToJson(const Camera& camera) {
  nlohmann::json j = nlohmann::json::object();
  if (!camera.name.empty()) j["name"] = camera.name;
  const CameraIntrinsics& k = camera.intrinsics;
  j["fx"] = k.fx;
  j["fy"] = k.fy;
  j["cx"] = k.cx;
  j["cy"] = k.cy;
  j["width"] = k.width;
  j["height"] = k.height;
  j["camera_to_world"] = toJson(camera.cameraToWorld());
  return j;
}

std::vector<Camera> readCameras(const std::string& path) {
  const nlohmann::json root = readJsonFile(path);
  return withErrorPrefix(path, [&] {
    const nlohmann::json* list = &root;
    if (root.is_object()) {
      JsonFields(root, "").allowOnly({"cameras"});
      if (!root.contains("cameras")) throw InputError("missing required field \"cameras\"");
      list = &root.at("cameras");
    }
    if (!list->is_array()) throw InputError("cameras: expected an array of camera objects");
    if (list->empty()) throw InputError("cameras: no camera given");
    std::vector<Camera> cameras;
    for (std::size_t i = 0; i < list->size(); ++i)
      cameras.push_back(cameraFromJson((*list)[i], "cameras[" + std::to_string(i) + "]", true, true));
    return cameras;
  });
}

void writeCameras(const std::string& path, const std::vector<Camera>& cameras) {
  nlohmann::json a = nlohmann::json::array();
  for (const Camera& c : cameras) a.push_back(cameraToJson(c));
  writeTextFile(path, a.dump(2) + "\n");
}

}  // namespace softfit

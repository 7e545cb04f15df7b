#include "observations/depth_frame.h"

#include <cmath>

#include "forward/errors.h"
#include "forward/io/text_output.h"
#include "forward/io/json_fields.h"
#include "observations/camera_json.h"
#include "observations/observation_json.h"

namespace softfit {

DepthCamera readDepthIntrinsics(const std::string& path) {
  const nlohmann::json root = readJsonFile(path);
  return withErrorPrefix(path, [&] {
    if (!root.is_object()) throw InputError("expected a JSON object with fx, fy, cx, cy, depth_scale");
    DepthCamera dc;
    dc.camera = cameraFromJson(root, "", false, false, {"depth_scale"});
    if (!root.contains("depth_scale")) throw InputError("missing required field \"depth_scale\"");
    const JsonFields f(root, "");
    dc.depthScale = f.number("depth_scale");
    if (!(dc.depthScale > 0.0)) throw InputError("depth_scale: must be positive (metres per depth unit)");
    return dc;
  });
}

void writeDepthIntrinsics(const std::string& path, const DepthCamera& camera) {
  nlohmann::json j = cameraToJson(camera.camera);
  j["depth_scale"] = camera.depthScale;
  writeTextFile(path, j.dump(2) + "\n");
}

DepthImage16 quantizeDepth(const DepthMap& map, double depthScale, const std::string& context) {
  if (!(depthScale > 0.0)) throw InputError(context + ": depth_scale must be positive");
  DepthImage16 image;
  image.width = map.width;
  image.height = map.height;
  image.values.assign(map.depth.size(), 0);
  for (std::size_t i = 0; i < map.depth.size(); ++i) {
    const double d = map.depth[i];
    if (d == 0.0) continue;
    const double units = std::round(d / depthScale);
    const int u = static_cast<int>(i % static_cast<std::size_t>(map.width));
    const int v = static_cast<int>(i / static_cast<std::size_t>(map.width));
    if (!std::isfinite(d) || d < 0.0 || units < 1.0 || units > 65535.0)
      throw InputError(context + ": depth " + std::to_string(d) + " at pixel (" + std::to_string(u) + ", " +
                       std::to_string(v) + ") is outside the 16-bit range of depth_scale " +
                       std::to_string(depthScale));
    image.values[i] = static_cast<std::uint16_t>(units);
  }
  return image;
}

DepthMap dequantizeDepth(const DepthImage16& image, double depthScale) {
  DepthMap map(image.width, image.height);
  for (std::size_t i = 0; i < image.values.size(); ++i) map.depth[i] = image.values[i] * depthScale;
  return map;
}

PointCloud readDepthFrame(const std::string& pngPath, const std::string& intrinsicsPath) {
  DepthCamera dc = readDepthIntrinsics(intrinsicsPath);
  const DepthImage16 image = readDepthPng(pngPath);
  CameraIntrinsics& k = dc.camera.intrinsics;
  if ((k.width != 0 && k.width != image.width) || (k.height != 0 && k.height != image.height))
    throw InputError(pngPath + ": image is " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                     " but " + intrinsicsPath + " says " + std::to_string(k.width) + "x" + std::to_string(k.height));
  k.width = image.width;
  k.height = image.height;
  return depthMapToCloud(dc.camera, dequantizeDepth(image, dc.depthScale));
}

void writeDepthFrame(const std::string& pngPath, const std::string& intrinsicsPath, const DepthCamera& camera,
                     const DepthMap& map) {
  writeDepthPng(pngPath, quantizeDepth(map, camera.depthScale, pngPath));
  writeDepthIntrinsics(intrinsicsPath, camera);
}

}  // namespace softfit

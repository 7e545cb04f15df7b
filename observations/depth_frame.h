#pragma once
// A captured depth frame: a 16-bit depth PNG plus an intrinsics JSON
//   {"fx": 525, "fy": 525, "cx": 319.5, "cy": 239.5, "depth_scale": 0.001,
//    "width": 640, "height": 480,                       (optional; checked against the PNG)
//    "camera_to_world": [[...4x4...]] or "look_at": {...}}  (optional; default identity)
// turned into a world-space point cloud: pixel (u, v) with value d != 0 gives
// camera.backProject(u, v, d * depth_scale) (conventions: observations/camera.h).
#include <string>

#include "observations/depth_map.h"
#include "observations/depth_png.h"

namespace softfit {

struct DepthCamera {
  Camera camera;            // width / height 0 when the JSON does not give them
  double depthScale = 0.0;  // metres per PNG unit
};

// Throws InputError naming `path` and the field for a missing file, invalid JSON,
// unknown keys, non-positive focal lengths or depth_scale, or an invalid pose.
DepthCamera readDepthIntrinsics(const std::string& path);
void writeDepthIntrinsics(const std::string& path, const DepthCamera& camera);

// Metres <-> sensor units. quantizeDepth rounds to the nearest unit; depths that round
// to 0 or exceed 65535 units throw InputError (prefixed with `context`).
DepthImage16 quantizeDepth(const DepthMap& map, double depthScale, const std::string& context = "depth");
DepthMap dequantizeDepth(const DepthImage16& image, double depthScale);

// Reads both files and back-projects the non-zero pixels. Throws InputError naming the
// PNG or the JSON (size mismatch names both).
PointCloud readDepthFrame(const std::string& pngPath, const std::string& intrinsicsPath);

// Writes `map` as pngPath (quantized with camera.depthScale) and the intrinsics JSON.
void writeDepthFrame(const std::string& pngPath, const std::string& intrinsicsPath, const DepthCamera& camera,
                     const DepthMap& map);

}  // namespace softfit

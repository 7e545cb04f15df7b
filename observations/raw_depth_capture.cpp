#include "observations/raw_depth_capture.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "forward/errors.h"
#include "forward/io/text_output.h"
#include "observations/depth_frame.h"

namespace softfit {

namespace {

std::string imageName(const char* kind, int frame, int camera) {
  char name[80];
  std::snprintf(name, sizeof name, "depth/%s_%06d_cam%d.png", kind, frame, camera);
  return name;
}

// Zero where a depth does not fit the 16-bit PNG of this scale.
void clipToPngRange(DepthMap& map, double depthScale) {
  for (double& d : map.depth)
    if (d < 0.5 * depthScale || d >= 65535.5 * depthScale) d = 0.0;
}

class RawCaptureWriter {
 public:
  RawCaptureWriter(const std::string& dir, const EmbeddedSurface& surface, const StaticGeometry& background,
                   const std::vector<Camera>& cameras, const RawCaptureOptions& options)
      : dir_(dir), surface_(surface), background_(background), cameras_(cameras), options_(options),
        rng_(options.seed) {}

  // Renders and writes one frame's images; returns its capture.json entry.
  nlohmann::json frame(const char* kind, int index, const VecX& x, RawCaptureSummary& summary) {
    VecX positions = surface_.identity ? x : surface_.flatPositions(x);
    TriangleMatrix triangles = surface_.triangles;
    appendStaticGeometry(background_, positions, triangles);
    const TriangleBvh bvh(positions, triangles);
    nlohmann::json depth = nlohmann::json::array();
    long long measured = 0;
    for (std::size_t c = 0; c < cameras_.size(); ++c) {
      DepthMap map =
          applyDepthSensor(options_.sensor, cameras_[c], renderSurfaceView(cameras_[c], bvh, positions, triangles), rng_);
      clipToPngRange(map, options_.depthScale);
      measured += map.validCount();
      const std::string image = imageName(kind, index, static_cast<int>(c));
      const std::string path = (std::filesystem::path(dir_) / image).string();
      writeDepthPng(path, quantizeDepth(map, options_.depthScale, path));
      depth.push_back({{"image", image}, {"intrinsics", intrinsicsName(static_cast<int>(c))}});
      ++summary.images;
    }
    if (measured == 0)
      throw InputError(dir_ + ": " + kind + " frame " + std::to_string(index) + ": no camera measures any depth");
    summary.measuredPixels += measured;
    return {{"frame", index}, {"depth", depth}};
  }

  static std::string intrinsicsName(int camera) { return "depth/cam" + std::to_string(camera) + ".json"; }

 private:
  std::string dir_;
  const EmbeddedSurface& surface_;
  const StaticGeometry& background_;
  const std::vector<Camera>& cameras_;
  const RawCaptureOptions& options_;
  GaussianNoise rng_;
};

}  // namespace

RawCaptureSummary writeRawDepthCapture(const std::string& dir, const std::vector<State>& states,
                                       const EmbeddedSurface& surface, const StaticGeometry& background,
                                       const std::vector<Camera>& cameras, const RawCaptureOptions& options) {
  if (states.empty()) throw InputError("raw capture: no states");
  if (cameras.empty()) throw InputError("raw capture: no cameras");
  if (options.stride < 1) throw InputError("raw capture: stride must be at least 1");
  if (options.restFrames < 0) throw InputError("raw capture: the number of rest frames must be >= 0");
  if (!(options.simulationDt > 0.0)) throw InputError("raw capture: the simulation dt must be positive");
  if (!(options.depthScale > 0.0)) throw InputError("raw capture: depth_scale must be positive");
  validateDepthSensorModel(options.sensor, "raw capture: sensor");
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(dir) / "depth", ec);
  if (ec) throw InputError(dir + ": cannot create the capture folder (" + ec.message() + ")");
  for (std::size_t c = 0; c < cameras.size(); ++c)
    writeDepthIntrinsics((std::filesystem::path(dir) / RawCaptureWriter::intrinsicsName(static_cast<int>(c))).string(),
                         DepthCamera{cameras[c], options.depthScale});

  RawCaptureSummary summary;
  RawCaptureWriter writer(dir, surface, background, cameras, options);
  nlohmann::json rest = nlohmann::json::array(), frames = nlohmann::json::array();
  for (int k = 0; k < options.restFrames; ++k) rest.push_back(writer.frame("rest", k, states[0].x, summary));
  const int count = static_cast<int>((states.size() - 1) / static_cast<std::size_t>(options.stride)) + 1;
  for (int f = 0; f < count; ++f)
    frames.push_back(writer.frame("frame", f, states[static_cast<std::size_t>(f) * options.stride].x, summary));
  summary.frames = count;
  summary.restFrames = options.restFrames;

  nlohmann::json root = nlohmann::json::object();
  root["frame_count"] = count;
  root["dt"] = options.stride * options.simulationDt;
  if (!options.description.empty()) root["description"] = options.description;
  root["frames"] = frames;
  if (options.restFrames > 0) root["rest_frames"] = rest;
  writeTextFile((std::filesystem::path(dir) / "capture.json").string(), root.dump(2) + "\n");
  return summary;
}

}  // namespace softfit

#include "observations/capture_io.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "forward/errors.h"
#include "forward/io/json_fields.h"
#include "forward/io/text_output.h"
#include "forward/mesh/input_file.h"
#include "observations/capture_manifest.h"
#include "observations/depth_frame.h"
#include "observations/observation_json.h"

namespace softfit {

namespace {

std::string resolve(const std::string& dir, const std::string& file) {
  const std::filesystem::path p(file);
  return p.is_absolute() ? file : (std::filesystem::path(dir) / p).string();
}

std::string frameFileName(const char* prefix, int frame, CloudFileFormat format) {
  char name[64];
  std::snprintf(name, sizeof name, "%s_%06d", prefix, frame);
  return std::string("frames/") + name + cloudFileExtension(format);
}

// Reads the files of every spec into frames[spec.frame].
std::vector<CaptureFrame> loadFrames(const std::string& dir, const std::string& jsonPath,
                                     const std::vector<CaptureFrameSpec>& specs, bool allowEmpty, const std::string& label) {
  std::vector<CaptureFrame> frames(specs.size());
  for (const CaptureFrameSpec& s : specs) {
    const std::string where = jsonPath + ": " + s.field + " (" + label + " " + std::to_string(s.frame) + ")";
    CaptureFrame& out = frames[s.frame];
    out.frame = s.frame;
    out.weight = s.weight;
    withErrorPrefix(where, [&] {
      for (const std::string& c : s.clouds) {
        const std::string path = resolve(dir, c);
        requireRegularFile(path, "cloud file");
        appendCloud(out.cloud, readPointCloud(path));
      }
      for (const auto& [image, intrinsics] : s.depth) {
        const std::string png = resolve(dir, image), json = resolve(dir, intrinsics);
        requireRegularFile(png, "depth image");
        requireRegularFile(json, "intrinsics file");
        appendCloud(out.cloud, readDepthFrame(png, json));
      }
      // Pixel ids only where they name one camera's pixels: a frame of one depth image.
      if (s.depth.size() != 1 || !s.clouds.empty()) out.cloud.pixels.clear();
      checkFinitePoints(out.cloud, "cloud");
      if (out.cloud.empty() && !allowEmpty)
        throw InputError("the point cloud is empty (0 points); set \"allow_empty_frames\": true in capture.json "
                         "to accept frames without points");
    });
  }
  return frames;
}

}  // namespace

Capture loadCapture(const std::string& dir, const LoadCaptureOptions& options) {
  const std::string jsonPath = (std::filesystem::path(dir) / "capture.json").string();
  requireFolder(dir, "capture folder");
  const nlohmann::json root = readJsonFile(jsonPath);

  const CaptureManifest manifest = parseCaptureManifest(root, jsonPath);
  const bool allowEmpty = manifest.allowEmptyFrames || options.allowEmptyFrames;
  Capture capture;
  capture.source = dir;
  capture.dt = manifest.dt;
  capture.frames = loadFrames(dir, jsonPath, manifest.frames, allowEmpty, "frame");
  capture.restFrames = loadFrames(dir, jsonPath, manifest.restFrames, allowEmpty, "rest frame");
  return capture;
}

namespace {

void checkFramesToWrite(const std::vector<CaptureFrame>& frames, const std::string& jsonPath, const std::string& label,
                        bool allowEmptyFrames) {
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const CaptureFrame& f = frames[k];
    const std::string where = jsonPath + ": " + label + " " + std::to_string(k);
    if (f.frame != static_cast<int>(k))
      throw InputError(where + ": " + label + "s must be numbered 0..N-1 in order (found " + std::to_string(f.frame) +
                       ")");
    if (!(f.weight >= 0.0) || !std::isfinite(f.weight)) throw InputError(where + ": weight must be >= 0");
    if (f.cloud.empty() && !allowEmptyFrames) throw InputError(where + ": the point cloud is empty (0 points)");
  }
}

nlohmann::json writeFrameClouds(const std::string& dir, const std::vector<CaptureFrame>& frames, const char* prefix,
                                CloudFileFormat format) {
  nlohmann::json list = nlohmann::json::array();
  for (const CaptureFrame& f : frames) {
    const std::string file = frameFileName(prefix, f.frame, format);
    writePointCloud((std::filesystem::path(dir) / file).string(), f.cloud, format);
    list.push_back({{"frame", f.frame}, {"weight", f.weight}, {"cloud", file}});
  }
  return list;
}

}  // namespace

void writeCapture(const std::string& dir, const Capture& capture, CloudFileFormat format, bool allowEmptyFrames) {
  const std::string jsonPath = (std::filesystem::path(dir) / "capture.json").string();
  if (!(capture.dt > 0.0)) throw InputError(jsonPath + ": cannot write a capture without a positive dt");
  if (capture.frames.empty()) throw InputError(jsonPath + ": cannot write a capture without frames");
  checkFramesToWrite(capture.frames, jsonPath, "frame", allowEmptyFrames);
  checkFramesToWrite(capture.restFrames, jsonPath, "rest frame", allowEmptyFrames);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(dir) / "frames", ec);
  if (ec) throw InputError(dir + ": cannot create the capture folder (" + ec.message() + ")");

  nlohmann::json root = nlohmann::json::object();
  root["frame_count"] = capture.frameCount();
  root["dt"] = capture.dt;
  if (allowEmptyFrames) root["allow_empty_frames"] = true;
  root["frames"] = writeFrameClouds(dir, capture.frames, "frame", format);
  if (!capture.restFrames.empty()) root["rest_frames"] = writeFrameClouds(dir, capture.restFrames, "rest", format);
  writeTextFile(jsonPath, root.dump(2) + "\n");
}

}  // namespace softfit

#include "observations/capture_io.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "forward/errors.h"
#include "forward/io/text_output.h"
#include "forward/io/json_fields.h"
#include "forward/mesh/input_file.h"
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

struct FrameSpec {
  int frame = -1;
  double weight = 1.0;
  std::vector<std::string> clouds;
  std::vector<std::pair<std::string, std::string>> depth;  // image, intrinsics
  std::string field;                                       // "frames[i]"
};

FrameSpec parseFrame(const nlohmann::json& j, const std::string& field, int frameCount, const std::string& label) {
  const JsonFields f(j, field);
  f.allowOnly({"frame", "weight", "cloud", "clouds", "depth"});
  FrameSpec s;
  s.field = field;
  s.frame = f.integer("frame");
  if (s.frame < 0 || s.frame >= frameCount)
    throw InputError(f.field("frame") + " = " + std::to_string(s.frame) + ": outside [0, " +
                     (label == "frame" ? "frame_count = " : "rest frame count = ") + std::to_string(frameCount) + ")");
  s.weight = f.number("weight", 1.0);
  if (!(s.weight >= 0.0)) throw InputError(f.field("weight") + ": must be >= 0");
  if (f.has("cloud")) s.clouds.push_back(f.string("cloud"));
  if (f.has("clouds")) {
    const auto& a = j.at("clouds");
    if (!a.is_array()) throw InputError(f.field("clouds") + ": expected an array of file names");
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!a[i].is_string()) throw InputError(f.field("clouds") + "[" + std::to_string(i) + "]: expected a file name");
      s.clouds.push_back(a[i].get<std::string>());
    }
  }
  if (f.has("depth")) {
    for (const JsonFields& d : f.objectArray("depth")) {
      d.allowOnly({"image", "intrinsics"});
      s.depth.emplace_back(d.string("image"), d.string("intrinsics"));
    }
  }
  if (s.clouds.empty() && s.depth.empty())
    throw InputError(field + " (" + label + " " + std::to_string(s.frame) +
                     "): no data (give \"cloud\", \"clouds\" or \"depth\")");
  return s;
}

// The entries of `key` ("frames" or "rest_frames"), each of frames 0..count-1 exactly once.
std::vector<FrameSpec> parseFrameList(const nlohmann::json& list, const std::string& key, int count,
                                      const std::string& label) {
  std::vector<FrameSpec> specs;
  // Sized by the entries listed, not by count (frame_count may be 2e9): a missing frame
  // is found among the first list.size() + 1.
  std::map<int, std::size_t> seenAt;
  for (std::size_t i = 0; i < list.size(); ++i) {
    FrameSpec s = parseFrame(list[i], key + "[" + std::to_string(i) + "]", count, label);
    const auto [it, inserted] = seenAt.emplace(s.frame, i);
    if (!inserted)
      throw InputError(label + " " + std::to_string(s.frame) + " is listed twice (" + key + "[" +
                       std::to_string(it->second) + "] and " + key + "[" + std::to_string(i) + "])");
    specs.push_back(std::move(s));
  }
  for (int k = 0; k < count; ++k)
    if (!seenAt.count(k))
      throw InputError(label + " " + std::to_string(k) + " is missing from \"" + key + "\"" +
                       (key == "frames" ? " (frame_count = " + std::to_string(count) + ")" : std::string()));
  return specs;
}

// Reads the files of every spec into frames[spec.frame].
std::vector<CaptureFrame> loadFrames(const std::string& dir, const std::string& jsonPath,
                                     const std::vector<FrameSpec>& specs, bool allowEmpty, const std::string& label) {
  std::vector<CaptureFrame> frames(specs.size());
  for (const FrameSpec& s : specs) {
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

  int frameCount = 0;
  bool allowEmpty = options.allowEmptyFrames;
  Capture capture;
  capture.source = dir;
  std::vector<FrameSpec> specs, restSpecs;
  withErrorPrefix(jsonPath, [&] {
    if (!root.is_object()) throw InputError("expected a JSON object with frame_count, dt and frames");
    const JsonFields f(root, "");
    f.allowOnly({"frame_count", "dt", "allow_empty_frames", "frames", "rest_frames", "background_frames", "description"});
    // "background_frames" (depth images of the empty scene) are read by softfit reconstruct only.
    frameCount = f.integer("frame_count");
    if (frameCount < 1) throw InputError("frame_count: must be at least 1");
    capture.dt = f.number("dt");
    if (!(capture.dt > 0.0)) throw InputError("dt: must be positive (seconds between frames)");
    allowEmpty = f.boolean("allow_empty_frames", false) || allowEmpty;
    const auto& frames = root.contains("frames") ? root.at("frames") : nlohmann::json();
    if (!frames.is_array()) throw InputError(root.contains("frames") ? "frames: expected an array of frame objects"
                                                                     : "missing required field \"frames\"");
    specs = parseFrameList(frames, "frames", frameCount, "frame");
    if (root.contains("rest_frames")) {
      const auto& rest = root.at("rest_frames");
      if (!rest.is_array()) throw InputError("rest_frames: expected an array of frame objects");
      restSpecs = parseFrameList(rest, "rest_frames", static_cast<int>(rest.size()), "rest frame");
    }
  });

  capture.frames = loadFrames(dir, jsonPath, specs, allowEmpty, "frame");
  capture.restFrames = loadFrames(dir, jsonPath, restSpecs, allowEmpty, "rest frame");
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

#include "observations/capture_manifest.h"

#include <cmath>
#include <map>

#include "forward/errors.h"
#include "forward/io/json_fields.h"
#include "forward/value_limits.h"

namespace softfit {

namespace {

CaptureFrameSpec parseFrame(const nlohmann::json& j, const std::string& field, int frameCount, const std::string& label) {
  const JsonFields f(j, field);
  f.allowOnly({"frame", "weight", "cloud", "clouds", "depth"});
  CaptureFrameSpec s;
  s.field = field;
  s.frame = f.integer("frame");
  if (s.frame < 0 || s.frame >= frameCount)
    throw InputError(f.field("frame") + " = " + std::to_string(s.frame) + ": outside [0, " +
                     (label == "frame" ? "frame_count = " : label + " count = ") + std::to_string(frameCount) + ")");
  s.weight = f.number("weight", 1.0);
  if (!(s.weight >= 0.0) || !std::isfinite(s.weight)) throw InputError(f.field("weight") + ": must be finite and >= 0");
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
std::vector<CaptureFrameSpec> parseFrameList(const nlohmann::json& list, const std::string& key, int count,
                                             const std::string& label) {
  std::vector<CaptureFrameSpec> specs;
  // Sized by the entries listed, not by count (frame_count may be 2e9): a missing frame
  // is found among the first list.size() + 1.
  std::map<int, std::size_t> seenAt;
  for (std::size_t i = 0; i < list.size(); ++i) {
    CaptureFrameSpec s = parseFrame(list[i], key + "[" + std::to_string(i) + "]", count, label);
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

CaptureManifest parseFields(const nlohmann::json& root) {
  if (!root.is_object()) throw InputError("expected a JSON object with frame_count, dt and frames");
  const JsonFields f(root, "");
  f.allowOnly({"frame_count", "dt", "allow_empty_frames", "frames", "rest_frames", "background_frames", "description"});
  // "background_frames" (depth images of the empty scene) are read by softfit reconstruct only.
  CaptureManifest m;
  m.frameCount = f.integer("frame_count");
  if (m.frameCount < 1) throw InputError("frame_count: must be at least 1");
  m.dt = f.number("dt");
  requireTimeStep(m.dt, "dt");
  m.allowEmptyFrames = f.boolean("allow_empty_frames", false);
  const auto& frames = root.contains("frames") ? root.at("frames") : nlohmann::json();
  if (!frames.is_array()) throw InputError(root.contains("frames") ? "frames: expected an array of frame objects"
                                                                   : "missing required field \"frames\"");
  m.frames = parseFrameList(frames, "frames", m.frameCount, "frame");
  if (root.contains("rest_frames")) {
    const auto& rest = root.at("rest_frames");
    if (!rest.is_array()) throw InputError("rest_frames: expected an array of frame objects");
    m.restFrames = parseFrameList(rest, "rest_frames", static_cast<int>(rest.size()), "rest frame");
  }
  if (root.contains("background_frames")) {
    const auto& background = root.at("background_frames");
    if (!background.is_array()) throw InputError("background_frames: expected an array of frame objects");
    m.backgroundFrames =
        parseFrameList(background, "background_frames", static_cast<int>(background.size()), "background frame");
  }
  return m;
}

}  // namespace

CaptureManifest parseCaptureManifest(const nlohmann::json& root, const std::string& jsonPath) {
  try {
    return parseFields(root);
  } catch (const InputError& e) {
    throw InputError(jsonPath + ": " + e.what());
  }
}

}  // namespace softfit

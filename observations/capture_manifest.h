#pragma once
// capture.json as plain data (layout: capture_io.h, observations/README.md): the frame
// count, dt and, per frame and rest frame, the files that hold its points. Parsing it
// reads no cloud or depth file; loadCapture (capture_io.h) reads them.
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace softfit {

struct CaptureFrameSpec {
  int frame = -1;
  double weight = 1.0;
  std::vector<std::string> clouds;                         // as written (relative to the folder)
  std::vector<std::pair<std::string, std::string>> depth;  // image, intrinsics
  std::string field;                                       // "frames[i]" / "rest_frames[i]"
};

struct CaptureManifest {
  int frameCount = 0;
  double dt = 0.0;
  bool allowEmptyFrames = false;          // "allow_empty_frames"
  std::vector<CaptureFrameSpec> frames;   // in the order listed; each of 0..frameCount-1 once
  std::vector<CaptureFrameSpec> restFrames;
  std::vector<CaptureFrameSpec> backgroundFrames;  // "background_frames": the empty scene (softfit reconstruct)
};

// Throws InputError starting with `jsonPath` and naming the field for: a document that is
// not an object, unknown keys, a missing or non-positive frame_count or dt, a missing /
// duplicated / out-of-range frame, rest frame or background frame, a negative weight, or a
// frame without data. Every reader of capture.json (loadCapture, reconstruct's raw
// frames) goes through it.
CaptureManifest parseCaptureManifest(const nlohmann::json& root, const std::string& jsonPath);

}  // namespace softfit

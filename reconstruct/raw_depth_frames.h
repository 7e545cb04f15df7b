#pragma once
// The raw depth images of a capture folder, kept on their image grids (softfit
// reconstruct needs pixels and neighbours, not the back-projected clouds that
// observations/capture_io.h's loadCapture returns). Reads capture.json's "frames" and
// "rest_frames" "depth" entries (layout: observations/README.md); a camera is one
// intrinsics file (however its path is spelled). Depths are metres (PNG value x depth_scale, 0 = no measurement).
#include <string>
#include <vector>

#include "observations/depth_frame.h"

namespace softfit {

struct RawDepthView {
  int camera = 0;     // index into RawDepthCapture::cameras
  std::string image;  // PNG path, for messages
  DepthMap depth;     // metres, the camera's size
};

enum class FrameKind { Motion, Rest, Background };

struct RawDepthFrame {
  int frame = 0;        // frame number within its list
  double weight = 1.0;  // the frame's weight in the fit's cost (capture.json "weight")
  std::vector<RawDepthView> views;
};

struct RawDepthCapture {
  std::string dir, jsonPath;
  double dt = 0.0;
  std::vector<DepthCamera> cameras;          // width / height always set (from the first image if the JSON has none)
  std::vector<std::string> intrinsicsFiles;  // one per camera
  std::vector<RawDepthFrame> frames;         // motion frames 0..N-1
  std::vector<RawDepthFrame> restFrames;     // rest frames 0..K-1 (K >= 1)
  std::vector<RawDepthFrame> backgroundFrames;  // optional "background_frames": the empty scene

  // "DIR/capture.json: frame 3", "...: rest frame 0" or "...: background frame 1".
  std::string where(FrameKind kind, int frame) const;
};

// Throws InputError naming capture.json, the frame and the file for: a capture.json that
// parseCaptureManifest refuses (capture_manifest.h: the checks loadCapture makes), no (or
// an empty) "rest_frames" list, a frame without "depth" entries or with point clouds, a missing intrinsics or PNG file, an image whose size differs from its
// intrinsics' width / height, images of different sizes for one camera, an image with
// no measured pixel (all zero), or a frame listed twice or missing.
RawDepthCapture readRawDepthCapture(const std::string& dir);

// Sets to 0 (no measurement) every depth outside [minRange, maxRange] metres, with 1%
// slack for the PNG's quantization (a sensor reports nothing there); maxRange 0 = no upper
// limit. Returns how many were cleared.
long long clearDepthsOutsideRange(RawDepthCapture& capture, double minRange, double maxRange);

}  // namespace softfit

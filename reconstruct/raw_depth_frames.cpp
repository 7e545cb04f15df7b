#include "reconstruct/raw_depth_frames.h"

#include <cmath>
#include <filesystem>
#include <map>

#include "forward/errors.h"
#include "forward/io/json_fields.h"
#include "forward/mesh/input_file.h"
#include "observations/capture_manifest.h"
#include "observations/observation_json.h"

namespace softfit {

namespace {

std::string resolve(const std::string& dir, const std::string& file) {
  const std::filesystem::path p(file);
  return p.is_absolute() ? file : (std::filesystem::path(dir) / p).string();
}

struct CameraTable {
  std::map<std::string, int> index;  // canonical intrinsics path -> camera
  RawDepthCapture* capture = nullptr;

  // One camera per intrinsics file, however its path is spelled (depth/cam0.json and
  // depth/./cam0.json, or a link to it, are one camera).
  int camera(const std::string& path) {
    requireRegularFile(path, "intrinsics file");
    std::error_code ec;
    std::string key = std::filesystem::weakly_canonical(path, ec).string();
    if (ec) key = std::filesystem::absolute(path).lexically_normal().string();
    auto it = index.find(key);
    if (it != index.end()) return it->second;
    DepthCamera camera = readDepthIntrinsics(path);
    const int id = static_cast<int>(capture->cameras.size());
    capture->cameras.push_back(camera);
    capture->intrinsicsFiles.push_back(path);
    index.emplace(key, id);
    return id;
  }
};

RawDepthView readView(RawDepthCapture& capture, CameraTable& table, const std::string& png, const std::string& json) {
  RawDepthView view;
  view.image = png;
  view.camera = table.camera(json);
  requireRegularFile(png, "depth image");
  const DepthImage16 image = readDepthPng(png);
  DepthCamera& camera = capture.cameras[view.camera];
  CameraIntrinsics& k = camera.camera.intrinsics;
  if (k.width == 0 && k.height == 0) {
    k.width = image.width;  // the intrinsics JSON gives no size: the camera's first image sets it
    k.height = image.height;
  }
  if (image.width != k.width || image.height != k.height)
    throw InputError(png + ": image is " + std::to_string(image.width) + " x " + std::to_string(image.height) +
                     " but camera " + json + " is " + std::to_string(k.width) + " x " + std::to_string(k.height) +
                     " (mismatched intrinsics, or images of different sizes for one camera)");
  bool measured = false;
  for (std::uint16_t v : image.values) measured = measured || v != 0;
  if (!measured) throw InputError(png + ": every pixel is 0 (an all-zero depth frame)");
  view.depth = dequantizeDepth(image, camera.depthScale);
  return view;
}

// The frames of one list of the manifest (each of 0..count-1 once, checked there).
std::vector<RawDepthFrame> readList(RawDepthCapture& capture, CameraTable& table,
                                    const std::vector<CaptureFrameSpec>& specs, FrameKind kind) {
  std::vector<RawDepthFrame> frames(specs.size());
  for (const CaptureFrameSpec& spec : specs)
    withErrorPrefix(capture.where(kind, spec.frame) + " (" + spec.field + ")", [&] {
      if (spec.depth.empty() || !spec.clouds.empty())
        throw InputError("softfit reconstruct needs raw depth images (\"depth\": PNG + intrinsics), not point clouds");
      RawDepthFrame& out = frames[spec.frame];
      out.frame = spec.frame;
      out.weight = spec.weight;
      for (const auto& [image, intrinsics] : spec.depth)
        out.views.push_back(readView(capture, table, resolve(capture.dir, image), resolve(capture.dir, intrinsics)));
    });
  return frames;
}

}  // namespace

std::string RawDepthCapture::where(FrameKind kind, int frame) const {
  const char* label = kind == FrameKind::Rest ? "rest frame " : kind == FrameKind::Background ? "background frame " : "frame ";
  return jsonPath + ": " + label + std::to_string(frame);
}

RawDepthCapture readRawDepthCapture(const std::string& dir) {
  RawDepthCapture capture;
  capture.dir = dir;
  capture.jsonPath = (std::filesystem::path(dir) / "capture.json").string();
  requireFolder(dir, "capture folder");
  // The same manifest checks as every reader of capture.json (capture_manifest.h).
  const CaptureManifest manifest = parseCaptureManifest(readJsonFile(capture.jsonPath), capture.jsonPath);
  if (manifest.restFrames.empty())
    throw InputError(capture.jsonPath +
                     ": no \"rest_frames\": softfit reconstruct builds the rest shape from frames of the object at "
                     "rest before the motion (softfit synth --rest-frames K writes them)");
  capture.dt = manifest.dt;
  CameraTable table;
  table.capture = &capture;
  capture.restFrames = readList(capture, table, manifest.restFrames, FrameKind::Rest);
  capture.frames = readList(capture, table, manifest.frames, FrameKind::Motion);
  capture.backgroundFrames = readList(capture, table, manifest.backgroundFrames, FrameKind::Background);
  return capture;
}

long long clearDepthsOutsideRange(RawDepthCapture& capture, double minRange, double maxRange) {
  const double lo = 0.99 * minRange, hi = maxRange > 0.0 ? 1.01 * maxRange : INFINITY;
  long long cleared = 0;
  for (auto* list : {&capture.restFrames, &capture.frames, &capture.backgroundFrames})
    for (RawDepthFrame& frame : *list)
      for (RawDepthView& view : frame.views)
        for (double& z : view.depth.depth)
          if (z > 0.0 && (z < lo || z > hi)) {
            z = 0.0;
            ++cleared;
          }
  return cleared;
}

}  // namespace softfit

#include "reconstruct/raw_depth_frames.h"

#include <filesystem>
#include <map>

#include "forward/errors.h"
#include "forward/io/json_fields.h"
#include "observations/observation_json.h"

namespace softfit {

namespace {

std::string resolve(const std::string& dir, const std::string& file) {
  const std::filesystem::path p(file);
  return p.is_absolute() ? file : (std::filesystem::path(dir) / p).string();
}

struct CameraTable {
  std::map<std::string, int> index;  // intrinsics path -> camera
  RawDepthCapture* capture = nullptr;

  int camera(const std::string& path) {
    auto it = index.find(path);
    if (it != index.end()) return it->second;
    if (!std::filesystem::exists(path)) throw InputError(path + ": intrinsics file does not exist");
    DepthCamera camera = readDepthIntrinsics(path);
    const int id = static_cast<int>(capture->cameras.size());
    capture->cameras.push_back(camera);
    capture->intrinsicsFiles.push_back(path);
    index.emplace(path, id);
    return id;
  }
};

RawDepthView readView(RawDepthCapture& capture, CameraTable& table, const std::string& png, const std::string& json) {
  RawDepthView view;
  view.image = png;
  view.camera = table.camera(json);
  if (!std::filesystem::exists(png)) throw InputError(png + ": depth image does not exist");
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

std::vector<RawDepthFrame> readList(RawDepthCapture& capture, CameraTable& table, const nlohmann::json& list,
                                    const std::string& key, int count, FrameKind kind) {
  std::vector<RawDepthFrame> frames(count);
  std::vector<bool> seen(count, false);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string field = key + "[" + std::to_string(i) + "]";
    const JsonFields f(list[i], field);
    const int frame = withErrorPrefix(capture.jsonPath, [&] { return f.integer("frame"); });
    if (frame < 0 || frame >= count)
      throw InputError(capture.jsonPath + ": " + field + ".frame = " + std::to_string(frame) + ": outside [0, " +
                       std::to_string(count) + ")");
    if (seen[frame]) throw InputError(capture.where(kind, frame) + ": listed twice in \"" + key + "\"");
    seen[frame] = true;
    withErrorPrefix(capture.where(kind, frame) + " (" + field + ")", [&] {
      if (!f.has("depth"))
        throw InputError("no \"depth\" entries: softfit reconstruct needs raw depth images (PNG + intrinsics)");
      RawDepthFrame& out = frames[frame];
      out.frame = frame;
      for (const JsonFields& d : f.objectArray("depth"))
        out.views.push_back(
            readView(capture, table, resolve(capture.dir, d.string("image")), resolve(capture.dir, d.string("intrinsics"))));
    });
  }
  for (int k = 0; k < count; ++k)
    if (!seen[k]) throw InputError(capture.where(kind, k) + ": missing from \"" + key + "\"");
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
  if (!std::filesystem::is_directory(dir)) throw InputError(dir + ": capture folder does not exist");
  const nlohmann::json root = readJsonFile(capture.jsonPath);
  int frameCount = 0;
  withErrorPrefix(capture.jsonPath, [&] {
    if (!root.is_object()) throw InputError("expected a JSON object with frame_count, dt, frames and rest_frames");
    const JsonFields f(root, "");
    frameCount = f.integer("frame_count");
    if (frameCount < 1) throw InputError("frame_count: must be at least 1");
    capture.dt = f.number("dt");
    if (!(capture.dt > 0.0)) throw InputError("dt: must be positive (seconds between frames)");
    if (!root.contains("frames") || !root.at("frames").is_array())
      throw InputError("frames: expected an array of frame objects");
    if (!root.contains("rest_frames") || !root.at("rest_frames").is_array() || root.at("rest_frames").empty())
      throw InputError("no \"rest_frames\": softfit reconstruct builds the rest shape from frames of the object at "
                       "rest before the motion (softfit synth --rest-frames K writes them)");
  });
  CameraTable table;
  table.capture = &capture;
  const nlohmann::json& rest = root.at("rest_frames");
  capture.restFrames = readList(capture, table, rest, "rest_frames", static_cast<int>(rest.size()), FrameKind::Rest);
  capture.frames = readList(capture, table, root.at("frames"), "frames", frameCount, FrameKind::Motion);
  if (root.contains("background_frames")) {
    const nlohmann::json& background = root.at("background_frames");
    if (!background.is_array())
      throw InputError(capture.jsonPath + ": background_frames: expected an array of frame objects");
    capture.backgroundFrames = readList(capture, table, background, "background_frames",
                                        static_cast<int>(background.size()), FrameKind::Background);
  }
  return capture;
}

}  // namespace softfit

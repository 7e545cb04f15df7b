#pragma once
// Capture folders (layout documented in observations/README.md):
//   DIR/capture.json  {"frame_count": N, "dt": seconds, "allow_empty_frames": false,
//                      "frames": [{"frame": 0, "weight": 1, "cloud": "frames/frame_000000.ply"},
//                                 {"frame": 1, "clouds": ["a.ply", "b.xyz"]},
//                                 {"frame": 2, "depth": [{"image": "d/f2_c0.png", "intrinsics": "d/c0.json"}]}],
//                      "rest_frames": [{"frame": 0, "depth": [...]}, ...]}   (optional)
// Every frame 0..N-1 is listed exactly once; its points are the union of its cloud
// files and depth images. The optional "rest_frames" (the body at rest before the
// motion) have the same entries, numbered 0..K-1 with K = their count. Paths are
// relative to DIR (absolute paths are kept).
#include <string>

#include "observations/capture.h"
#include "observations/point_cloud_file.h"

namespace softfit {

struct LoadCaptureOptions {
  bool allowEmptyFrames = false;  // also enabled by "allow_empty_frames": true in capture.json
};

// Throws InputError naming DIR/capture.json and the frame (and the offending file) for:
// a missing or malformed capture.json, unknown keys, a missing / duplicated / out-of-range
// frame or rest frame (named "rest_frames[i] (rest frame k)"), a frame without data, a
// missing or malformed cloud / depth / intrinsics file, a non-finite point, or a frame
// whose cloud is empty (unless empty frames are allowed).
Capture loadCapture(const std::string& dir, const LoadCaptureOptions& options = {});

// Writes DIR/capture.json and one cloud file per frame (DIR/frames/frame_NNNNNN.ply or
// .xyz) and per rest frame (DIR/frames/rest_NNNNNN.*), creating DIR as needed. Throws
// InputError when capture.dt <= 0, the frames or rest frames are not numbered 0..N-1 in
// order, a weight is negative, a frame is empty (unless
// allowEmptyFrames, which is then recorded in capture.json), or a file cannot be written.
void writeCapture(const std::string& dir, const Capture& capture, CloudFileFormat format = CloudFileFormat::PlyBinary,
                  bool allowEmptyFrames = false);

}  // namespace softfit

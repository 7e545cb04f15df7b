#include "python/bindings/capture_bindings.h"

#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <utility>

#include "forward/errors.h"
#include "forward/io/output_folder.h"
#include "forward/value_limits.h"
#include "observations/depth_sensor_json.h"
#include "python/bindings/interruptible.h"
#include "reconstruct/reconstruction.h"
#include "scene/scene_loader.h"
#include "synth/synthetic_capture.h"

namespace py = pybind11;

namespace softfit::python {

namespace {

py::list vec3(const Vec3& v) { return py::cast(std::vector<double>{v[0], v[1], v[2]}); }

py::dict summaryDict(const ReconstructSummary& r) {
  py::dict out;
  out["ground_normal"] = vec3(r.groundNormal);
  out["ground_offset"] = r.groundOffset;
  out["object_size"] = r.objectSize;
  out["voxel"] = r.voxel;
  out["cell_size"] = r.cellSize;
  out["volume"] = r.volume;
  out["rest_frames"] = r.restFrames;
  out["frames"] = r.frames;
  out["frames_without_object"] = r.framesWithoutObject;
  out["object_points"] = r.objectPoints;
  out["flying_pixels"] = r.flyingPixels;
  out["exact_distance"] = r.exactDistance;
  out["initial_velocity"] = vec3(r.motion.velocity);
  out["cameras"] = r.cameras;
  out["warnings"] = r.warnings;
  if (r.compared) {
    out["true_volume"] = r.trueVolume;
    out["volume_error_percent"] = r.volumeErrorPercent;
    out["chamfer"] = r.chamfer;
    out["chamfer_cells"] = r.chamferCells;
  }
  return out;
}

}  // namespace

void bindCaptures(py::module_& m) {
  m.def(
      "synth",
      [](const std::string& scene, const std::string& output, const std::string& sensor, bool background,
         int restFrames, int cameraCount, int resolution, double noise, std::uint64_t seed, int stride, int steps,
         const std::string& cameras) {
        checkOutputFolder(output, {scene, cameras}, "output");
        SceneDescription description = loadScene(scene);
        if (steps >= 0) description.steps = steps;
        SyntheticCaptureOptions options;
        options.sensor = sensor;
        options.background = background;
        options.restFrames = restFrames;
        options.cameraCount = cameraCount;
        options.resolutionGiven = resolution > 0;
        if (resolution > 0) options.resolution = resolution;
        options.noise = noise;
        options.seed = seed;
        options.stride = stride;
        options.cameras = cameras;
        const SyntheticCaptureSummary summary =
            runWithoutGil([&] { return writeSyntheticCapture(description, output, options); });
        py::dict out;
        out["frames"] = summary.frames;
        out["cameras"] = summary.cameras;
        out["points"] = summary.points;
        return out;
      },
      py::arg("scene"), py::arg("output"), py::arg("sensor") = "ideal", py::arg("background") = false,
      py::arg("rest_frames") = -1, py::arg("camera_count") = 9, py::arg("resolution") = 0, py::arg("noise") = 0.0,
      py::arg("seed") = 1, py::arg("stride") = 1, py::arg("steps") = -1, py::arg("cameras") = "",
      R"doc(`softfit synth SCENE -o OUTPUT`: simulates the scene file and writes a capture for
softfit.fit: point clouds (sensor "ideal", optional isotropic `noise`), or raw 16-bit depth
images with `sensor="kinect"` and/or `background=True` (floor, wall, clutter; rest frames
first, 5 unless rest_frames is given), plus cameras.json, displacements.json and
truth.json. resolution 0: 80 pixels (raw captures: Kinect's 320 x 240). Returns
{"frames", "cameras", "points"} (points: measured pixels of a raw capture).)doc");
  m.def(
      "reconstruct",
      [](const std::string& capture, const std::string& output, const std::string& sensor,
         std::optional<double> voxel, std::optional<double> cellSize, int stride, int velocityFrames,
         bool angularVelocity, const std::string& truthScene) {
        ReconstructOptions options;
        options.noise.sensor = depthSensorModelFromOption(sensor, "sensor");
        if (velocityFrames < 0 || velocityFrames > 1000)  // as the CLI's --velocity-frames
          throw InputError("velocity_frames = " + std::to_string(velocityFrames) + ": must be in 0..1000");
        // Given sizes must be positive, as the CLI's --voxel and --cell-size (None: from the object's size).
        for (const auto& [value, name] : {std::pair{voxel, "voxel"}, std::pair{cellSize, "cell_size"}})
          if (value && !(*value > 0.0 && std::isfinite(*value)))
            throw InputError(std::string(name) + " = " + formatValue(*value) +
                             ": must be a finite size in metres > 0 (or None: from the object's size)");
        options.voxel = voxel.value_or(0.0);
        options.cellSize = cellSize.value_or(0.0);
        options.stride = stride;
        options.initialMotion.frames = velocityFrames;
        options.initialMotion.angular = angularVelocity;
        options.truthScene = truthScene;
        const ReconstructSummary summary =
            runWithoutGil([&] { return reconstructCapture(capture, output, options); });
        return summaryDict(summary);
      },
      py::arg("capture"), py::arg("output"), py::arg("sensor") = "kinect", py::arg("voxel") = py::none(),
      py::arg("cell_size") = py::none(), py::arg("stride") = 1, py::arg("velocity_frames") = InitialMotionOptions{}.frames,
      py::arg("angular_velocity") = true, py::arg("truth_scene") = "",
      R"doc(`softfit reconstruct CAPTURE -o OUTPUT`: from a raw depth capture (capture.json with
rest_frames, 16-bit depth PNGs, no masks) to OUTPUT/scene.json (cut-cell grid),
OUTPUT/scene_tets.json, OUTPUT/observations/ (for softfit.fit) and OUTPUT/report/.
Returns the summary: ground plane, rest-shape size and volume, frame and point counts,
the estimated initial velocity and angular velocity (from the motion frames before the
first contact, at most velocity_frames of them; angular_velocity=False: no spin), and the
comparison with truth_scene when given.
Bad input raises InputError naming the file and frame; nothing is left at OUTPUT then.)doc");
}

}  // namespace softfit::python

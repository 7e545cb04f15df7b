#include "python/bindings/reconstruct_bindings.h"

#include <pybind11/stl.h>

#include "forward/errors.h"
#include "python/bindings/interruptible.h"
#include "reconstruct/reconstruction.h"

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
  if (r.compared) {
    out["true_volume"] = r.trueVolume;
    out["volume_error_percent"] = r.volumeErrorPercent;
    out["chamfer"] = r.chamfer;
    out["chamfer_cells"] = r.chamferCells;
  }
  return out;
}

}  // namespace

void bindReconstruct(py::module_& m) {
  m.def(
      "reconstruct",
      [](const std::string& capture, const std::string& output, const std::string& sensor, double voxel,
         double cellSize, int stride, int velocityFrames, const std::string& truthScene) {
        ReconstructOptions options;
        if (sensor == "kinect") options.noise.sensor = DepthSensorModel::kinectV1();
        else if (sensor == "ideal") options.noise.sensor = DepthSensorModel::ideal();
        else throw InputError("sensor: unknown sensor '" + sensor + "' (ideal or kinect)");
        if (!(voxel >= 0.0)) throw InputError("voxel: must be >= 0 (0 = object size / 48)");
        if (!(cellSize >= 0.0)) throw InputError("cell_size: must be >= 0 (0 = object size / 8)");
        if (stride < 1) throw InputError("stride: must be at least 1");
        if (velocityFrames < 0) throw InputError("velocity_frames: must be >= 0");
        options.voxel = voxel;
        options.cellSize = cellSize;
        options.stride = stride;
        options.initialMotion.frames = velocityFrames;
        options.truthScene = truthScene;
        const ReconstructSummary summary =
            runWithoutGil([&] { return reconstructCapture(capture, output, options); });
        return summaryDict(summary);
      },
      py::arg("capture"), py::arg("output"), py::arg("sensor") = "kinect", py::arg("voxel") = 0.0,
      py::arg("cell_size") = 0.0, py::arg("stride") = 1, py::arg("velocity_frames") = 3,
      py::arg("truth_scene") = "",
      R"doc(`softfit reconstruct CAPTURE -o OUTPUT`: from a raw depth capture (capture.json with
rest_frames, 16-bit depth PNGs, no masks) to OUTPUT/scene.json (cut-cell grid),
OUTPUT/scene_tets.json, OUTPUT/observations/ (for softfit.fit) and OUTPUT/report/.
Returns the summary: ground plane, rest-shape size and volume, frame and point counts,
the estimated initial velocity (and the comparison with truth_scene when given).
Bad input raises InputError naming the file and frame; nothing is left at OUTPUT then.)doc");
}

}  // namespace softfit::python

#include "apps/commands/synth_sensor.h"

#include "forward/errors.h"

namespace softfit::apps {

void addSynthSensorOptions(CLI::App* command, SynthSensorOptions& options) {
  command
      ->add_option("--sensor", options.sensor,
                   "Depth sensor model: ideal, or kinect (Kinect v1 noise, quantization, holes, flying pixels; "
                   "writes raw depth PNGs)")
      ->capture_default_str();
  command->add_flag("--background", options.background,
                    "Render the floor, a back wall and clutter into raw depth PNGs (never simulated)");
  command->add_option("--rest-frames", options.restFrames,
                      "Frames of the body at rest before the motion (default 5 with --sensor kinect or "
                      "--background, else 0)");
}

DepthSensorModel sensorModelFromOption(const std::string& name) {
  if (name == "ideal") return DepthSensorModel::make(DepthSensorKind::Ideal);
  if (name == "kinect") return DepthSensorModel::make(DepthSensorKind::KinectV1);
  throw InputError("--sensor = \"" + name + "\": unknown (valid: ideal, kinect)");
}

void applyKinectLikeRig(CameraRigOptions& rig) {
  rig.width = 320;
  rig.height = 240;
  rig.fieldOfViewDegrees = 43.0;
}

RawCaptureSummary writeSynthRawCapture(const std::string& dir, const SynthSensorOptions& options,
                                       const SceneDescription& description, const std::vector<State>& states,
                                       const EmbeddedSurface& surface, const std::vector<Camera>& cameras,
                                       const Vec3& motionMin, const Vec3& motionMax, std::uint64_t seed, int stride) {
  RawCaptureOptions raw;
  raw.sensor = sensorModelFromOption(options.sensor);
  raw.seed = seed;
  raw.stride = stride;
  raw.restFrames = options.restFrameCount();
  raw.simulationDt = description.dt;
  raw.description = "softfit synth --sensor " + options.sensor + (options.background ? " --background" : "") +
                    ": raw depth images, rest frames first in the noise stream";
  StaticGeometry background;
  if (options.background) {
    BackgroundOptions b;
    if (description.ground) {
      b.hasGround = true;
      b.groundNormal = description.ground->normal;
      b.groundOffset = description.ground->offset;
    }
    background = makeStaticBackground(motionMin, motionMax, cameras, b);
  }
  return writeRawDepthCapture(dir, states, surface, background, cameras, raw);
}

}  // namespace softfit::apps

#pragma once
// A depth sensor's error model: turns an ideal rendered depth image (one ray per pixel
// centre, observations/surface_view.h) into what a real structured-light camera
// measures. Two presets: `ideal` (the image unchanged, today's virtual camera) and
// `kinectV1` (Microsoft Kinect v1 / PrimeSense Carmine). Every parameter is a plain
// number below; zero (or the stated neutral value) switches its effect off.
//
// Effects, applied to each image in this fixed order (one random stream, gaussian_noise.h):
//  1. Lateral noise at depth edges (Nguyen, Izadi, Lovell 2012, "Modeling Kinect Sensor
//     Noise for Improved 3D Reconstruction and Tracking", 3DIMPVT, eq. for sigma_L):
//       sigma_L(theta) = lateralSigmaPixels + lateralAngleGain * theta / (pi/2 - theta)  [pixels]
//     (in metres sigma_L * z / fx). theta = angle between the surface normal and the
//     pixel's ray (the paper uses the camera axis; the two agree near the image centre),
//     clamped to maxIncidenceDegrees. Only pixels at a discontinuity (a 4-neighbour
//     with a depth jump larger than discontinuityRatio * z, or a hole next to a
//     measurement) move: on a smooth surface a lateral shift slides the point along the
//     surface and is invisible. Such a pixel takes the ideal depth of the pixel
//     round(u + sigma_L g_u), round(v + sigma_L g_v) (clamped to the image), g ~ N(0,1),
//     two draws per edge pixel in row-major order: the depth edge jitters sideways.
//  2. Flying pixels: a measured pixel with a 4-neighbour deeper by more than
//     discontinuityRatio * z is a foreground pixel at an edge; with probability
//     flyingPixelProbability (one uniform draw per such pixel, row-major) it is replaced by
//     z + t (z_back - z) with t uniform in (0, 1) (a second draw), z_back the deepest
//     such neighbour: the mixed foreground / background return of a structured-light
//     window straddling the edge ("flying" or mixed pixels; Sabov & Krueger 2008,
//     "Identification and Correction of Flying Pixels in Range Camera Data", SCCG).
//  3. Axial noise (Nguyen et al. 2012, fitted on a Kinect v1 for incidence angles of
//     about 10-60 degrees):
//       sigma_z(z) = axialSigmaConstant + axialSigmaQuadratic * (z - axialSigmaOffset)^2   [m]
//     That fit is of the sensor's quantized output, so when quantization (4) is on the
//     Gaussian part gets variance sigma_z^2 - step(z)^2 / 12 (never below 0) and the
//     quantized total has about Nguyen's sigma_z (tests: -3% at 2 m, where the step is
//     about twice the Gaussian sigma and the rounding error is not quite uniform). One
//     standard normal per measured pixel, row-major.
//  4. Disparity quantization (Khoshelham & Elberink 2012, "Accuracy and Resolution of
//     Kinect Depth Data for Indoor Mapping Applications", Sensors 12: depth from disparity
//     d = f b / z, d measured in steps of 1/8 pixel): with f = disparityFocalPixels and
//     b = baselineMetres, z -> f b / (round(f b / (z s)) s), s = disparityStepPixels, a
//     depth step of about z^2 s / (f b) (2.9 mm at 1 m, 11.5 mm at 2 m). The focal is the
//     sensor's native one, independent of the rendered image's resolution.
//  5. Invalid pixels (value 0): measured depth outside [minRangeMetres, maxRangeMetres];
//     incidence angle between ray and surface normal above maxIncidenceDegrees (the
//     projected pattern is too stretched to match); then random dropouts, one uniform
//     draw per pixel still measured (row-major), dropped with probability
//     dropoutProbability.
#include <string>

#include "observations/gaussian_noise.h"
#include "observations/surface_view.h"

namespace softfit {

enum class DepthSensorKind {
  Ideal,     // the rendered depth unchanged
  KinectV1,  // the parameters of DepthSensorModel::kinectV1()
};

struct DepthSensorModel {
  DepthSensorKind kind = DepthSensorKind::Ideal;
  // Axial noise sigma_z(z) = c + q (z - o)^2 [m]. Kinect v1: Nguyen et al. 2012.
  double axialSigmaConstant = 0.0;   // c: Kinect v1 0.0012 m
  double axialSigmaQuadratic = 0.0;  // q: Kinect v1 0.0019 m^-1
  double axialSigmaOffset = 0.0;     // o: Kinect v1 0.4 m
  // Lateral noise sigma_L = p + a theta / (pi/2 - theta) [pixels of the sensor's
  // 640 x 480 image]; Nguyen et al. 2012 give p = 0.8 px, a = 0.035 px.
  double lateralSigmaPixels = 0.0;
  double lateralAngleGain = 0.0;
  double lateralReferenceFocalPixels = 585.0;  // the paper's fx; sigma scales by fx / this
  // Disparity quantization (Khoshelham & Elberink 2012): step 1/8 px, baseline 7.5 cm,
  // IR focal about 580 px. disparityStepPixels = 0 switches quantization off.
  double disparityStepPixels = 0.0;  // Kinect v1 0.125
  double disparityFocalPixels = 580.0;
  double baselineMetres = 0.075;
  // Valid range. Kinect v1: 0.4 .. 4.0 m, the union of the Kinect for Windows SDK's near
  // (0.4 .. 3 m) and default (0.8 .. 4 m) modes (Khoshelham & Elberink 2012 measure
  // 0.5 .. 5 m). 0 = no limit.
  double minRangeMetres = 0.0;
  double maxRangeMetres = 0.0;  // 0 = no upper limit
  // Pixels whose ray meets the surface at more than this angle from its normal are
  // invalid. Nguyen et al. 2012 see the axial noise grow sharply beyond about 70
  // degrees; the Kinect v1 preset's 75 is a choice in that band. 90 = never.
  double maxIncidenceDegrees = 90.0;
  double dropoutProbability = 0.0;      // random holes; Kinect v1 default 0.01 (a choice, not a measurement)
  double flyingPixelProbability = 0.0;  // per foreground edge pixel; Kinect v1 default 0.5 (a choice)
  double discontinuityRatio = 0.05;     // a depth jump larger than this fraction of z is an edge

  static DepthSensorModel ideal() { return {}; }
  static DepthSensorModel kinectV1();
  static DepthSensorModel make(DepthSensorKind kind);

  bool isIdeal() const;
  // sigma_z(z) of effect 3 (before the quantization share is taken off).
  double axialSigma(double z) const;
  // Quantized depth of effect 4 (z unchanged when quantization is off or z <= 0).
  double quantize(double z) const;
  // Depth step of the quantization at z (0 when off).
  double quantizationStep(double z) const;
  // Lateral sigma in pixels of an image with focal fx, at incidence angle theta.
  double lateralSigma(double thetaRadians, double fx) const;
};

// Throws InputError (prefixed with `context`) when a parameter is negative, not finite,
// a probability is outside [0, 1], the range is empty or the angle outside (0, 90].
void validateDepthSensorModel(const DepthSensorModel& model, const std::string& context = "depth sensor");

// The measured image of `view` seen by `camera`. The ideal model returns view.depth
// unchanged and draws nothing. Deterministic for a given `noise` state.
DepthMap applyDepthSensor(const DepthSensorModel& model, const Camera& camera, const SurfaceView& view,
                          GaussianNoise& noise);

}  // namespace softfit

#pragma once
// The per-point depth noise softfit reconstruct assumes: the sensor model's axial sigma
// at the measured depth (observations/depth_sensor_model.h; Kinect v1: Nguyen, Izadi,
// Lovell 2012, sigma_z = 0.0012 + 0.0019 (z - 0.4)^2 m, which already includes the
// disparity quantization), never below the PNG unit's rounding error (unit / sqrt(12)).
// Used for every threshold (ground band, background match, flying pixels, carving
// margin) and written per point with the observations.
#include "observations/depth_sensor_model.h"

namespace softfit {

struct DepthNoise {
  DepthSensorModel sensor = DepthSensorModel::kinectV1();
  double depthScale = 0.001;  // metres per PNG unit

  // Standard deviation of a measured depth z (metres), > 0.
  double sigma(double z) const;
};

}  // namespace softfit

#include "reconstruct/initial_motion.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace softfit {

namespace {

Vec3 rotationVector(const Mat3& r) {
  const Eigen::AngleAxisd aa(r);
  return aa.angle() * aa.axis();
}

Vec3 centroidOf(const PointMatrix& p) { return p.colwise().mean().transpose(); }

// The registered frames: the centre of mass and the rotation vector at t_k = k dt.
struct FlightSamples {
  std::vector<double> t;
  std::vector<Vec3> center, theta;
  std::vector<double> rms;
};

struct Flight {
  Vec3 velocity = Vec3::Zero(), omega = Vec3::Zero(), alpha = Vec3::Zero();
  Vec3 acceleration = Vec3::Zero();

  Vec3 center(const Vec3& c0, double t) const { return c0 + velocity * t + 0.5 * acceleration * t * t; }
  Vec3 theta(double t) const { return omega * t + 0.5 * alpha * t * t; }
};

// Least squares over samples [0, count): v through the origin in t (a known); omega (and
// alpha when `quadratic`) through the origin.
Flight fitFlight(const FlightSamples& s, int count, const Vec3& c0, const Vec3& acceleration, bool quadratic) {
  Flight f;
  f.acceleration = acceleration;
  double tt = 0.0, t3 = 0.0, t4 = 0.0;
  Vec3 tv = Vec3::Zero(), tw = Vec3::Zero(), t2w = Vec3::Zero();
  for (int k = 0; k < count; ++k) {
    const double t = s.t[k];
    tt += t * t;
    t3 += t * t * t;
    t4 += t * t * t * t;
    tv += t * (s.center[k] - c0 - 0.5 * acceleration * t * t);
    tw += t * s.theta[k];
    t2w += t * t * s.theta[k];
  }
  f.velocity = tv / tt;
  if (quadratic) {
    // [tt  t3/2; t3/2  t4/4] [omega; alpha] = [tw; t2w/2]
    const double a11 = tt, a12 = 0.5 * t3, a22 = 0.25 * t4, det = a11 * a22 - a12 * a12;
    f.omega = (a22 * tw - a12 * 0.5 * t2w) / det;
    f.alpha = (a11 * 0.5 * t2w - a12 * tw) / det;
  } else {
    f.omega = tw / tt;
  }
  return f;
}

// Departure of sample k from flight f: the centre's distance plus the rotation's at the
// body's radius.
double departure(const FlightSamples& s, int k, const Flight& f, const Vec3& c0, double radius) {
  return (s.center[k] - f.center(c0, s.t[k])).norm() + radius * (s.theta[k] - f.theta(s.t[k])).norm();
}

struct FlightFit {
  Flight flight;
  int count = 0;  // samples explained
  double rms = 0.0;
};

// The longest prefix of the samples that one flight with this acceleration explains.
FlightFit longestFlight(const FlightSamples& s, const Vec3& c0, double radius, const Vec3& acceleration,
                        const InitialMotionOptions& options) {
  const int n = static_cast<int>(s.t.size());
  // Fit the first `count` samples; stop at the last sample or the first one off that flight.
  for (int count = 1;; ++count) {
    FlightFit fit;
    fit.count = count;
    fit.flight = fitFlight(s, count, c0, acceleration, count >= options.quadraticFrames);
    double sum2 = 0.0;
    for (int k = 0; k < count; ++k) sum2 += std::pow(departure(s, k, fit.flight, c0, radius), 2);
    fit.rms = std::sqrt(sum2 / count);
    if (count == n || departure(s, count, fit.flight, c0, radius) >
                          std::max(options.positionTolerance, options.deviationFactor * fit.rms))
      return fit;
  }
}

}  // namespace

InitialMotionEstimate estimateInitialMotion(const TriangleSurface& rest, const std::vector<PointCloud>& frames,
                                            double dt, const Vec3& gravity, const Vec3& groundNormal,
                                            const InitialMotionOptions& options) {
  InitialMotionEstimate m;
  if (options.frames <= 0 || rest.triangleCount() == 0 || !(dt > 0.0) || frames.size() < 2) return m;
  const SurfaceRegistration registration(rest);
  const Vec3 c0 = enclosedCentroid(rest);
  m.center = c0;
  double radius2 = 0.0;
  for (int i = 0; i < rest.vertexCount(); ++i) radius2 += (rest.vertices.row(i).transpose() - c0).squaredNorm();
  const double radius = std::sqrt(radius2 / rest.vertexCount());

  FlightSamples samples;
  std::vector<RigidPose> poses{RigidPose{}};
  const int last = std::min<int>(options.frames, static_cast<int>(frames.size()) - 1);
  for (int k = 1; k <= last; ++k) {
    if (frames[k].size() < 6) break;
    RigidPose start;
    if (k == 1) {
      // The centroid offset of the views (the same cameras see both frames alike).
      if (frames[0].size() > 0) start.translation = centroidOf(frames[1].points) - centroidOf(frames[0].points);
    } else {
      // Constant velocity from the two frames before, plus gravity for the centre.
      const RigidPose& p1 = poses[k - 1];
      const RigidPose& p2 = poses[k - 2];
      start.rotation = p1.rotation * p2.rotation.transpose() * p1.rotation;
      const Vec3 c = 2.0 * p1.apply(c0) - p2.apply(c0) + gravity * dt * dt;
      start.translation = c - start.rotation * c0;
    }
    const SurfaceRegistrationResult r = registration.align(frames[k].points, start, options.registration);
    if (r.pointsUsed == 0) break;
    poses.push_back(r.pose);
    samples.t.push_back(k * dt);
    samples.center.push_back(r.pose.apply(c0));
    samples.theta.push_back(rotationVector(r.pose.rotation));
    samples.rms.push_back(r.rms);
  }
  m.framesRegistered = static_cast<int>(samples.t.size());
  if (m.framesRegistered == 0) return m;

  const Vec3 n = groundNormal.normalized();
  const FlightFit free = longestFlight(samples, c0, radius, gravity, options);
  const FlightFit sliding = longestFlight(samples, c0, radius, gravity - gravity.dot(n) * n, options);
  const bool slide = sliding.count > free.count || (sliding.count == free.count && sliding.rms < free.rms);
  const FlightFit& best = slide ? sliding : free;
  m.estimated = true;
  m.sliding = slide;
  m.framesUsed = best.count;
  const int velocityCount = options.velocityFrames > 0 ? std::min(options.velocityFrames, best.count) : best.count;
  m.velocity = fitFlight(samples, velocityCount, c0, best.flight.acceleration, false).velocity;
  m.angularVelocity = options.angular ? best.flight.omega : Vec3::Zero();
  m.flightRms = best.rms;
  double rms2 = 0.0;
  for (int k = 0; k < best.count; ++k) rms2 += samples.rms[k] * samples.rms[k];
  m.rmsResidual = std::sqrt(rms2 / best.count);
  return m;
}

}  // namespace softfit

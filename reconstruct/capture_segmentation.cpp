#include "reconstruct/capture_segmentation.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "forward/errors.h"
#include "reconstruct/rest_pixel_consistency.h"

namespace softfit {

ViewPoints backProjectView(const Camera& camera, int cameraIndex, const DepthMap& depth, const DepthNoise& noise) {
  ViewPoints out;
  out.camera = cameraIndex;
  const int count = depth.validCount();
  out.points.resize(count, 3);
  out.pixels.reserve(count);
  out.sigmas.reserve(count);
  int k = 0;
  for (int v = 0; v < depth.height; ++v)
    for (int u = 0; u < depth.width; ++u) {
      const double z = depth.at(u, v);
      if (!(z > 0.0)) continue;
      out.points.row(k++) = camera.backProject(u, v, z).transpose();
      out.pixels.push_back(v * depth.width + u);
      out.sigmas.push_back(noise.sigma(z));
    }
  return out;
}

void labelSilhouettes(const DepthMap& depth, SegmentedView& view) {
  std::vector<bool> object(depth.depth.size(), false);
  for (std::size_t j = 0; j < view.labels.size(); ++j)
    if (view.labels[j] == PointLabel::Object) object[view.points.pixels[j]] = true;
  const auto isObject = [&](int u, int v) {
    return u >= 0 && v >= 0 && u < depth.width && v < depth.height && object[static_cast<std::size_t>(v) * depth.width + u];
  };
  for (std::size_t j = 0; j < view.labels.size(); ++j) {
    if (view.labels[j] != PointLabel::Object) continue;
    const int u = view.points.pixels[j] % depth.width, v = view.points.pixels[j] / depth.width;
    if (!isObject(u - 1, v) || !isObject(u + 1, v) || !isObject(u, v - 1) || !isObject(u, v + 1))
      view.labels[j] = PointLabel::Silhouette;
  }
}

namespace {

std::string imagesOf(const RawDepthFrame& frame) {
  std::string list;
  for (const RawDepthView& v : frame.views) list += (list.empty() ? "" : ", ") + v.image;
  return list;
}

// Least-squares point nearest to every camera's optical axis.
Vec3 sharedViewCentre(const std::vector<DepthCamera>& cameras) {
  Mat3 a = Mat3::Zero();
  Vec3 b = Vec3::Zero();
  for (const DepthCamera& c : cameras) {
    const Vec3 axis = c.camera.rotation.col(2).normalized();
    const Mat3 projector = Mat3::Identity() - axis * axis.transpose();
    a += projector;
    b += projector * c.camera.position;
  }
  if (cameras.size() < 2 || std::abs(a.determinant()) < 1e-9) {
    // One camera (or parallel axes): a point in front of the first camera at 1.5 m.
    const Camera& c = cameras.front().camera;
    return c.position + 1.5 * c.rotation.col(2).normalized();
  }
  return a.ldlt().solve(b);
}

SegmentedFrame segmentFrame(const RawDepthCapture& capture, const RawDepthFrame& frame, const DepthNoise& noise,
                            const FittedPlane& ground, const Workspace& workspace, const Vec3& seed,
                            const SegmentationOptions& options,
                            const std::vector<std::vector<bool>>* staticPixels, bool dropSilhouettes) {
  // All views of the frame segmented together (the object seen from every side is one component).
  SegmentedFrame out;
  std::vector<int> start;
  int total = 0;
  for (const RawDepthView& v : frame.views) {
    SegmentedView view;
    view.points = backProjectView(capture.cameras[v.camera].camera, v.camera, v.depth, noise);
    start.push_back(total);
    total += view.points.points.rows();
    out.views.push_back(std::move(view));
  }
  PointMatrix all(total, 3);
  std::vector<double> sigmas(total);
  std::vector<bool> background;
  if (staticPixels) background.assign(total, false);
  for (std::size_t i = 0; i < out.views.size(); ++i) {
    const ViewPoints& p = out.views[i].points;
    all.middleRows(start[i], p.points.rows()) = p.points;
    std::copy(p.sigmas.begin(), p.sigmas.end(), sigmas.begin() + start[i]);
    if (staticPixels)
      for (std::size_t k = 0; k < p.pixels.size(); ++k) background[start[i] + k] = (*staticPixels)[i][k];
  }
  const FrameSegmentation seg =
      segmentObject(all, sigmas, background, ground.normal, ground.offset, workspace, seed, options);
  out.object.points.resize(seg.objectCount, 3);
  int k = 0;
  for (std::size_t i = 0; i < out.views.size(); ++i) {
    SegmentedView& view = out.views[i];
    view.labels.assign(seg.labels.begin() + start[i], seg.labels.begin() + start[i] + view.points.points.rows());
    if (dropSilhouettes) labelSilhouettes(frame.views[i].depth, view);
    for (std::size_t j = 0; j < view.labels.size(); ++j)
      if (view.labels[j] == PointLabel::Object) {
        out.object.points.row(k++) = view.points.points.row(j);
        out.objectSigmas.push_back(view.points.sigmas[j]);
      }
  }
  out.object.points.conservativeResize(k, 3);  // fewer when silhouettes were dropped
  out.centroid = seg.objectCentroid;
  return out;
}

// Per view of `frame`, per measured pixel: the static background rule. A pixel is
// background when `reference` (per camera; empty = none) measured it, `object` (per
// camera; empty = none) does not mark it, and the depths agree within 3 sqrt(2) sigma.
std::vector<std::vector<bool>> staticBackgroundFlags(const RawDepthFrame& frame, const std::vector<DepthMap>& reference,
                                                     const std::vector<std::vector<bool>>& object,
                                                     const DepthNoise& noise) {
  std::vector<std::vector<bool>> flags;
  for (const RawDepthView& v : frame.views) {
    std::vector<bool> view;
    const DepthMap& ref = reference[v.camera];
    const std::vector<bool>& mask = object[v.camera];
    for (int p = 0; p < static_cast<int>(v.depth.depth.size()); ++p) {
      const double z = v.depth.depth[p];
      if (!(z > 0.0)) continue;
      bool background = false;
      if (!ref.depth.empty() && ref.depth[p] > 0.0 && (mask.empty() || !mask[p]))
        background = std::abs(z - ref.depth[p]) <= 3.0 * std::sqrt(2.0) * noise.sigma(z);
      view.push_back(background);
    }
    flags.push_back(std::move(view));
  }
  return flags;
}

}  // namespace

CaptureSegmentation segmentCapture(RawDepthCapture& capture, const DepthNoise& noise,
                                   const CaptureSegmentationOptions& options) {
  CaptureSegmentation result;
  for (auto* list : {&capture.restFrames, &capture.frames, &capture.backgroundFrames})
    for (RawDepthFrame& frame : *list)
      for (RawDepthView& view : frame.views) result.flyingPixels +=
            removeFlyingPixels(view.depth, capture.cameras[view.camera].camera.intrinsics.fx, noise, options.flying);

  // Ground plane from every rest frame and camera.
  std::vector<ViewPoints> restPoints;
  int total = 0;
  std::vector<double> depths;
  std::vector<long long> cameraPoints(capture.cameras.size(), 0);
  for (const RawDepthFrame& frame : capture.restFrames)
    for (const RawDepthView& view : frame.views) {
      restPoints.push_back(backProjectView(capture.cameras[view.camera].camera, view.camera, view.depth, noise));
      total += restPoints.back().points.rows();
      cameraPoints[view.camera] += restPoints.back().points.rows();
      for (double z : view.depth.depth)
        if (z > 0.0) depths.push_back(z);
    }
  // A camera left with no depth (every pixel out of the sensor's range or filtered) would
  // be dropped silently, and the fused shape would miss its side: refused.
  for (std::size_t c = 0; c < cameraPoints.size(); ++c)
    if (cameraPoints[c] == 0)
      throw InputError(capture.jsonPath + ": camera " + capture.intrinsicsFiles[c] +
                       ": no valid depth in any rest frame (every pixel is out of the sensor's range or filtered; "
                       "check its depth_scale, or remove the camera from capture.json)");
  PointMatrix all(total, 3);
  std::vector<double> sigmas;
  sigmas.reserve(total);
  int row = 0;
  for (const ViewPoints& p : restPoints) {
    all.middleRows(row, p.points.rows()) = p.points;
    row += p.points.rows();
    sigmas.insert(sigmas.end(), p.sigmas.begin(), p.sigmas.end());
  }
  restPoints.clear();
  Vec3 up = Vec3::Zero(), cameraCentroid = Vec3::Zero();
  for (const DepthCamera& c : capture.cameras) {
    up -= c.camera.rotation.col(1);
    cameraCentroid += c.camera.position;
  }
  cameraCentroid /= static_cast<double>(capture.cameras.size());
  std::vector<Vec3> levelAxes;
  for (const DepthCamera& c : capture.cameras) levelAxes.push_back(c.camera.rotation.col(0));
  result.ground = fitGroundPlane(all, sigmas, up, cameraCentroid, capture.where(FrameKind::Rest, 0) + " (all rest frames)",
                                 options.ransac, 30.0, 4, levelAxes);
  result.ground.inliers.clear();

  Workspace& ws = result.workspace;
  ws.centre = sharedViewCentre(capture.cameras);
  double nearest = INFINITY;
  for (const DepthCamera& c : capture.cameras) nearest = std::min(nearest, (c.camera.position - ws.centre).norm());
  ws.radius = 0.5 * nearest;
  ws.height = 2.0 * ws.radius;

  SegmentationOptions seg = options.segmentation;
  if (seg.clusterRadius <= 0.0) {
    std::nth_element(depths.begin(), depths.begin() + depths.size() / 2, depths.end());
    const double z = depths.empty() ? 1.0 : depths[depths.size() / 2];
    double fx = INFINITY;
    for (const DepthCamera& c : capture.cameras) fx = std::min(fx, c.camera.intrinsics.fx);
    seg.clusterRadius = std::max(options.clusterFootprints * z / fx, 4.0 * noise.sigma(z));
  }
  result.clusterRadius = seg.clusterRadius;

  // Background frames (optional): the empty scene's depth per camera, used in every frame.
  const int cameraCount = static_cast<int>(capture.cameras.size());
  std::vector<DepthMap> backgroundDepth(cameraCount);
  const std::vector<std::vector<bool>> noMask(cameraCount);
  if (!capture.backgroundFrames.empty())
    for (const RawDepthView& v : capture.backgroundFrames.front().views) backgroundDepth[v.camera] = v.depth;
  const bool haveBackground = !capture.backgroundFrames.empty();

  // Rest frames: the object must be there and must not move.
  const auto segmentRestFrames = [&] {
    result.restFrames.clear();
    for (const RawDepthFrame& frame : capture.restFrames) {
      const std::vector<std::vector<bool>> flags =
          haveBackground ? staticBackgroundFlags(frame, backgroundDepth, noMask, noise) : std::vector<std::vector<bool>>();
      SegmentedFrame s =
          segmentFrame(capture, frame, noise, result.ground, ws, ws.centre, seg, haveBackground ? &flags : nullptr,
                       false);
      if (s.object.size() < options.minObjectPoints)
        throw InputError(capture.where(FrameKind::Rest, frame.frame) + ": the object is not in view (" +
                         std::to_string(s.object.size()) + " connected points above the ground within " +
                         std::to_string(ws.radius) + " m of the cameras' shared view centre; images " +
                         imagesOf(frame) + ")");
      result.restFrames.push_back(std::move(s));
    }
  };
  segmentRestFrames();
  const SegmentedFrame& first = result.restFrames.front();
  const Vec3 firstCentroid = first.centroid;
  const double size = (first.object.points.colwise().maxCoeff() - first.object.points.colwise().minCoeff()).norm();
  // Tolerance: a fraction of the size, but at least one pixel footprint at the object's
  // distance (coarse images shift the segmented centroid by about that much).
  double footprint = 0.0;
  for (const SegmentedView& view : first.views) {
    const Camera& camera = capture.cameras[view.points.camera].camera;
    footprint = std::max(footprint, (first.centroid - camera.position).norm() / camera.intrinsics.fx);
  }
  const double tolerance = std::max(options.restMotionFraction * size, footprint);
  for (std::size_t k = 1; k < result.restFrames.size(); ++k) {
    const double moved = (result.restFrames[k].centroid - firstCentroid).norm();
    if (moved > tolerance)
      throw InputError(capture.where(FrameKind::Rest, static_cast<int>(k)) + ": the object moves during the rest frames (its centroid is " +
                        std::to_string(moved) + " m from rest frame 0's, more than the tolerance " +
                       std::to_string(tolerance) + " m; images " + imagesOf(capture.restFrames[k]) + ")");
  }
  // The object is still: mixed pixels are told apart by their disagreement across the
  // rest frames (rest_pixel_consistency.h), and the rest frames segmented again without them.
  result.inconsistentRestDepths =
      removeInconsistentRestPixels(capture.restFrames, cameraCount, noise, options.restConsistency);
  if (result.inconsistentRestDepths > 0) segmentRestFrames();
  result.restLo = result.restFrames.front().object.points.colwise().minCoeff().transpose();
  result.restHi = result.restFrames.front().object.points.colwise().maxCoeff().transpose();
  for (const SegmentedFrame& s : result.restFrames) {
    result.restLo = result.restLo.cwiseMin(s.object.points.colwise().minCoeff().transpose());
    result.restHi = result.restHi.cwiseMax(s.object.points.colwise().maxCoeff().transpose());
  }

  // Static background per camera: the background frames' depth, else rest frame 0's
  // depth where no rest frame saw the object.
  std::vector<DepthMap> restDepth(cameraCount);
  std::vector<std::vector<bool>> restObject(cameraCount);
  for (const RawDepthView& v : capture.restFrames.front().views) restDepth[v.camera] = v.depth;
  for (std::size_t k = 0; k < capture.restFrames.size(); ++k)
    for (std::size_t i = 0; i < capture.restFrames[k].views.size(); ++i) {
      const RawDepthView& v = capture.restFrames[k].views[i];
      const SegmentedView& s = result.restFrames[k].views[i];
      std::vector<bool>& mask = restObject[v.camera];
      if (mask.empty()) mask.assign(static_cast<std::size_t>(v.depth.width) * v.depth.height, false);
      for (std::size_t j = 0; j < s.labels.size(); ++j)
        if (s.labels[j] == PointLabel::Object) mask[s.points.pixels[j]] = true;
    }

  Vec3 seed = result.restFrames.back().centroid;
  for (const RawDepthFrame& frame : capture.frames) {
    const std::vector<std::vector<bool>> staticPixels =
        haveBackground ? staticBackgroundFlags(frame, backgroundDepth, noMask, noise)
                       : staticBackgroundFlags(frame, restDepth, restObject, noise);
    SegmentedFrame s = segmentFrame(capture, frame, noise, result.ground, ws, seed, seg, &staticPixels,
                                    options.dropMotionSilhouettes);
    if (s.object.size() > 0) seed = s.centroid;
    result.frames.push_back(std::move(s));
  }
  if (std::all_of(result.frames.begin(), result.frames.end(), [](const SegmentedFrame& f) { return f.object.empty(); }))
    throw InputError(capture.jsonPath + ": the object is in no motion frame (" + std::to_string(result.frames.size()) +
                     " frames, none with object points: it left the cameras' view, or the frames show another scene)");
  return result;
}

}  // namespace softfit

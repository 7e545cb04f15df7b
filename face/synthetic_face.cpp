#include "face/synthetic_face.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>

#include "face/muscle_surface.h"
#include "forward/mesh/procedural_box.h"

namespace softfit::face {

namespace {

constexpr double kDeg = M_PI / 180.0;
const Vec3 kInnerAxes(0.07, 0.10, 0.09);  // m
constexpr double kThickness = 0.015;      // m
constexpr double kThetaMax = 75.0, kPhiMin = -55.0, kPhiMax = 60.0;  // degrees
constexpr double kSkullAbove = -12.0, kJawBelow = -36.0;             // degrees of phi

// Chart point (theta, phi in degrees, depth w in [0, 1]) -> position.
Vec3 chart(double thetaDeg, double phiDeg, double w) {
  const double th = thetaDeg * kDeg, ph = phiDeg * kDeg;
  const Vec3 axes = kInnerAxes + Vec3::Constant(w * kThickness);
  return Vec3(axes.x() * std::cos(ph) * std::sin(th), axes.y() * std::sin(ph), axes.z() * std::cos(ph) * std::cos(th));
}

struct MuscleShape {
  std::string name;
  bool ring = false;
  Eigen::Vector2d center;     // (theta, phi) degrees
  Eigen::Vector2d direction;  // sheet: long axis in the chart
  double length = 0, width = 0;            // sheet, degrees
  double radiusTheta = 0, radiusPhi = 0;   // ring, degrees
  double tube = 0;                         // ring, degrees
  double w0 = 0.3, w1 = 0.95;              // depth range
  Vec3 fibre = Vec3::UnitX();              // rings: world fibre direction
};

std::vector<MuscleShape> muscleShapes() {
  std::vector<MuscleShape> m;
  for (int side : {-1, 1}) {
    MuscleShape f;
    f.name = side < 0 ? "frontalis_right" : "frontalis_left";
    f.center = {side * 24.0, 44.0};
    f.direction = {0.0, 1.0};
    f.length = 26.0;
    f.width = 26.0;
    f.w0 = 0.4;
    f.w1 = 1.0;
    m.push_back(f);
  }
  for (int side : {-1, 1}) {
    MuscleShape z;
    z.name = side < 0 ? "zygomaticus_right" : "zygomaticus_left";
    const Eigen::Vector2d from(side * 52.0, 8.0), to(side * 20.0, -22.0);
    z.center = 0.5 * (from + to);
    z.direction = (from - to).normalized();
    z.length = (from - to).norm() + 8.0;
    z.width = 14.0;
    m.push_back(z);
  }
  MuscleShape oris;
  oris.name = "orbicularis_oris";
  oris.ring = true;
  oris.center = {0.0, -25.0};
  oris.radiusTheta = 20.0;
  oris.radiusPhi = 11.0;
  oris.tube = 7.0;
  oris.w0 = 0.25;
  oris.w1 = 1.0;
  oris.fibre = Vec3::UnitX();
  m.push_back(oris);
  for (int side : {-1, 1}) {
    MuscleShape o;
    o.name = side < 0 ? "orbicularis_oculi_right" : "orbicularis_oculi_left";
    o.ring = true;
    o.center = {side * 28.0, 18.0};
    o.radiusTheta = 14.0;
    o.radiusPhi = 10.0;
    o.tube = 6.0;
    o.w0 = 0.35;
    o.w1 = 1.0;
    o.fibre = Vec3::UnitY();
    m.push_back(o);
  }
  return m;
}

// Closed surface of a muscle, built in the chart and mapped.
TriangleSurface muscleSurface(const MuscleShape& s, const Eigen::Vector2d& shift) {
  TriangleSurface out;
  out.source = "<synthetic " + s.name + ">";
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
  const Eigen::Vector2d c = s.center + shift;
  if (s.ring) {
    const int na = 28, nb = 10;
    for (int i = 0; i < na; ++i)
      for (int j = 0; j < nb; ++j) {
        const double a = 2 * M_PI * i / na, b = 2 * M_PI * j / nb;
        const double th = c.x() + (s.radiusTheta + s.tube * std::cos(b)) * std::cos(a);
        const double ph = c.y() + (s.radiusPhi + s.tube * std::cos(b)) * std::sin(a);
        const double w = 0.5 * (s.w0 + s.w1) + 0.5 * (s.w1 - s.w0) * std::sin(b);
        vertices.push_back(chart(th, ph, w));
      }
    for (int i = 0; i < na; ++i)
      for (int j = 0; j < nb; ++j) {
        const int a = i * nb + j, b = ((i + 1) % na) * nb + j, cc = ((i + 1) % na) * nb + (j + 1) % nb,
                  d = i * nb + (j + 1) % nb;
        triangles.push_back({a, b, cc});
        triangles.push_back({a, cc, d});
      }
  } else {
    // Boundary of a (ks x kr x kw) lattice in (along, across, depth).
    const int n[3] = {8, 6, 2};
    const Eigen::Vector2d perp(-s.direction.y(), s.direction.x());
    std::map<std::array<int, 3>, int> index;
    auto vertex = [&](std::array<int, 3> ijk) {
      auto it = index.find(ijk);
      if (it != index.end()) return it->second;
      const double along = s.length * (double(ijk[0]) / n[0] - 0.5), across = s.width * (double(ijk[1]) / n[1] - 0.5);
      const Eigen::Vector2d p = c + along * s.direction + across * perp;
      const double w = s.w0 + (s.w1 - s.w0) * double(ijk[2]) / n[2];
      vertices.push_back(chart(p.x(), p.y(), w));
      return index[ijk] = static_cast<int>(vertices.size()) - 1;
    };
    for (int axis = 0; axis < 3; ++axis)
      for (int side = 0; side < 2; ++side) {
        const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
        for (int i = 0; i < n[a1]; ++i)
          for (int j = 0; j < n[a2]; ++j) {
            std::array<int, 3> q[4];
            for (int k = 0; k < 4; ++k) {
              q[k][axis] = side * n[axis];
              q[k][a1] = i + (k == 1 || k == 2);
              q[k][a2] = j + (k >= 2);
            }
            const int v0 = vertex(q[0]), v1 = vertex(q[1]), v2 = vertex(q[2]), v3 = vertex(q[3]);
            if (side == 0) {
              triangles.push_back({v0, v2, v1});
              triangles.push_back({v0, v3, v2});
            } else {
              triangles.push_back({v0, v1, v2});
              triangles.push_back({v0, v2, v3});
            }
          }
      }
  }
  out.vertices.resize(vertices.size(), 3);
  for (std::size_t v = 0; v < vertices.size(); ++v) out.vertices.row(v) = vertices[v].transpose();
  out.triangles.resize(triangles.size(), 3);
  for (std::size_t t = 0; t < triangles.size(); ++t)
    out.triangles.row(t) << triangles[t][0], triangles[t][1], triangles[t][2];
  return out;
}

class Uniform01 {
 public:
  explicit Uniform01(unsigned seed) : engine_(seed) {}
  double operator()() { return engine_() / 4294967295.0; }

 private:
  std::mt19937 engine_;
};

}  // namespace

FaceTarget makeTarget(const FaceModel& model, const MuscleGeometry& geometry, const Expression& expression,
                      const std::vector<int>& nodes, const std::string& name, VecX* positions) {
  FaceSolver solver(model);
  VecX x;
  solver.solve(geometry.tetActivations(expression.activations), expression.jaw, x);
  FaceTarget t;
  t.name = name;
  t.nodes = nodes;
  t.points.resize(nodes.size(), 3);
  for (std::size_t k = 0; k < nodes.size(); ++k) t.points.row(k) = x.segment<3>(3 * nodes[k]).transpose();
  if (positions) *positions = x;
  return t;
}

Expression syntheticExpression(const SyntheticFace& face, int k, unsigned seed) {
  Uniform01 u(seed * 7919u + static_cast<unsigned>(k) * 104729u + 17u);
  Expression e;
  for (const Vec3& d : face.fibreDirections) {
    const bool active = u() < 0.6;
    const double contraction = active ? 0.06 + 0.22 * u() : 0.0;
    e.activations.push_back(active ? fibreContraction(d, 1.0 - contraction) : identityActivation());
  }
  e.jaw << 0.16 * u(), 0.04 * (2 * u() - 1), 0.001 * (2 * u() - 1), 0.0, 0.002 * u();
  return e;
}

SyntheticFace makeSyntheticFace(const SyntheticFaceOptions& o) {
  TetMesh mesh = makeBoxMesh(Vec3::Zero(), Vec3::Ones(), o.cellsAround, o.cellsUp, o.cellsThrough);
  const auto chartOf = [](const Vec3& uvw) {
    return Vec3(kThetaMax * (2 * uvw.x() - 1), kPhiMin + uvw.y() * (kPhiMax - kPhiMin), uvw.z());
  };
  std::vector<Vec3> params(mesh.vertexCount());
  for (int v = 0; v < mesh.vertexCount(); ++v) {
    params[v] = chartOf(mesh.vertices.row(v).transpose());
    mesh.vertices.row(v) = chart(params[v].x(), params[v].y(), params[v].z()).transpose();
  }
  for (int t = 0; t < mesh.tetCount(); ++t)
    if (signedTetVolume(mesh, t) < 0) std::swap(mesh.tets(t, 2), mesh.tets(t, 3));
  mesh.source = "<synthetic face>";

  SyntheticFace face;
  face.model = makeFaceModel(mesh, o.material);
  FaceModel& m = face.model;
  m.gravity = Vec3(0, -9.81, 0);
  for (int v = 0; v < m.nodeCount(); ++v) {
    if (params[v].z() < 1e-9) {
      if (params[v].y() > kSkullAbove) m.skullNodes.push_back(v);
      if (params[v].y() < kJawBelow) m.jawNodes.push_back(v);
    }
    if (params[v].z() > 1 - 1e-9) face.outerNodes.push_back(v);
  }
  m.jaw.pivot = Vec3(0.0, -0.02, -0.03);
  m.jaw.openAxis = Vec3::UnitX();
  m.jaw.sideAxis = Vec3::UnitY();

  const std::vector<MuscleShape> shapes = muscleShapes();
  const double shiftDegrees = o.muscleShift / kInnerAxes.y() / kDeg;
  for (std::size_t j = 0; j < shapes.size(); ++j) {
    const MuscleShape& s = shapes[j];
    m.muscleNames.push_back(s.name);
    const double angle = 2 * M_PI * j / shapes.size() + 0.3;
    face.trueMuscleSurfaces.push_back(muscleSurface(s, Eigen::Vector2d::Zero()));
    face.muscleSurfaces.push_back(muscleSurface(s, shiftDegrees * Eigen::Vector2d(std::cos(angle), std::sin(angle))));
    if (s.ring) {
      face.fibreDirections.push_back(s.fibre);
    } else {
      const double h = 1e-3;
      const Eigen::Vector2d a = s.center - h * s.direction, b = s.center + h * s.direction;
      const double wm = 0.5 * (s.w0 + s.w1);
      face.fibreDirections.push_back((chart(b.x(), b.y(), wm) - chart(a.x(), a.y(), wm)).normalized());
    }
  }
  face.muscleRadius = o.muscleRadius;
  m.geometry = geometryFromSurfaces(m.mesh, face.muscleSurfaces, o.muscleRadius);
  const MatX trueDense = geometryFromSurfaces(m.mesh, face.trueMuscleSurfaces, o.muscleRadius).dense();
  face.trueGeometry = m.geometry;
  for (int t = 0; t < m.tetCount(); ++t) face.trueGeometry.setRow(t, trueDense.row(t).transpose());
  validateFaceModel(m, "<synthetic face>");

  for (int k = 0; k < o.targetCount; ++k) {
    face.trueExpressions.push_back(syntheticExpression(face, k, o.seed));
    face.targets.push_back(makeTarget(m, face.trueGeometry, face.trueExpressions.back(), face.outerNodes,
                                      "expression_" + std::to_string(k)));
  }
  return face;
}

std::vector<int> injectBumpArtifact(FaceTarget& target, const Vec3& center, int count, double displacement) {
  std::vector<std::pair<double, int>> byDistance;
  for (std::size_t c = 0; c < target.nodes.size(); ++c)
    byDistance.push_back({(target.points.row(c).transpose() - center).norm(), static_cast<int>(c)});
  std::sort(byDistance.begin(), byDistance.end());
  std::vector<int> artifact;
  for (int k = 0; k < count && k < static_cast<int>(byDistance.size()); ++k) {
    const int c = byDistance[k].second;
    artifact.push_back(c);
    const Vec3 p = target.points.row(c).transpose();
    target.points.row(c) += displacement * p.normalized().transpose();
  }
  return artifact;
}

double artifactError(const FaceTarget& target, const std::vector<int>& artifact, const VecX& x) {
  double e = 0.0;
  for (int c : artifact) e += (x.segment<3>(3 * target.nodes[c]) - target.points.row(c).transpose()).norm();
  return artifact.empty() ? 0.0 : e / static_cast<double>(artifact.size());
}

}  // namespace softfit::face

#include "face/face_model.h"

#include <algorithm>
#include <set>

#include "forward/energies/lumped_mass.h"
#include "forward/errors.h"

namespace softfit::face {

DofMask FaceModel::attachedDofs() const {
  DofMask fixed(3 * nodeCount(), 0);
  for (int n : skullNodes)
    for (int k = 0; k < 3; ++k) fixed[3 * n + k] = 1;
  for (int n : jawNodes)
    for (int k = 0; k < 3; ++k) fixed[3 * n + k] = 1;
  return fixed;
}

void FaceModel::applyAttachments(const JawPose& pose, VecX& x) const {
  for (int n : skullNodes) x.segment<3>(3 * n) = mesh.vertices.row(n).transpose();
  for (int n : jawNodes) x.segment<3>(3 * n) = jawPosition(jaw, pose, mesh.vertices.row(n).transpose());
}

VecX FaceModel::externalForce() const {
  VecX f(3 * nodeCount());
  for (int n = 0; n < nodeCount(); ++n) f.segment<3>(3 * n) = mass[3 * n] * gravity;
  if (constantForce.size() == f.size()) f += constantForce;
  return f;
}

FaceModel makeFaceModel(TetMesh mesh, const FaceMaterial& material) {
  validateTetMesh(mesh);
  FaceModel m;
  m.mesh = std::move(mesh);
  m.elements = buildTetElements(m.mesh);
  m.lame.assign(m.tetCount(), lameFromYoungPoisson(material.youngsModulus, material.poissonRatio, "face material"));
  if (!(material.density > 0.0)) throw InputError("face material: density must be positive");
  m.mass = lumpedMass(m.elements, m.nodeCount(), VecX::Constant(m.tetCount(), material.density));
  std::vector<std::vector<int>> cliques;
  for (const auto& e : m.elements) cliques.push_back(e.nodes);
  m.pattern = BlockSparsePattern(m.nodeCount(), cliques);
  m.surfaceTriangles = boundaryFaces(m.mesh);
  std::set<int> surface(m.surfaceTriangles.data(), m.surfaceTriangles.data() + m.surfaceTriangles.size());
  m.surfaceNodes.assign(surface.begin(), surface.end());
  const Vec3 lo = m.mesh.vertices.colwise().minCoeff(), hi = m.mesh.vertices.colwise().maxCoeff();
  m.size = (hi - lo).norm();
  m.geometry = MuscleGeometry(0, std::vector<std::vector<int>>(m.tetCount()));
  return m;
}

void validateFaceModel(const FaceModel& model, const std::string& source) {
  auto checkNodes = [&](const std::vector<int>& nodes, const std::string& field) {
    for (int n : nodes)
      if (n < 0 || n >= model.nodeCount())
        throw InputError(source + ": " + field + " names node " + std::to_string(n) + " (mesh has " +
                         std::to_string(model.nodeCount()) + ")");
  };
  checkNodes(model.skullNodes, "skull nodes");
  checkNodes(model.jawNodes, "jaw nodes");
  if (model.skullNodes.empty() && model.jawNodes.empty())
    throw InputError(source + ": no skull or jaw nodes: the face would float freely");
  if (model.geometry.tetCount() != model.tetCount())
    throw InputError(source + ": muscle geometry has " + std::to_string(model.geometry.tetCount()) + " rows for " +
                     std::to_string(model.tetCount()) + " tets");
  if (model.geometry.muscleCount() != model.muscleCount())
    throw InputError(source + ": muscle geometry has " + std::to_string(model.geometry.muscleCount()) +
                     " muscle columns for " + std::to_string(model.muscleCount()) + " muscles");
  if (model.jaw.openAxis.norm() < 1e-12 || model.jaw.sideAxis.norm() < 1e-12)
    throw InputError(source + ": jaw axes must be nonzero");
}

MuscleGeometry geometryFromDistances(const std::vector<VecX>& distance, double radius) {
  const int muscles = static_cast<int>(distance.size());
  const int tets = muscles ? static_cast<int>(distance[0].size()) : 0;
  std::vector<std::vector<int>> allowed(tets);
  for (int j = 0; j < muscles; ++j)
    for (int i = 0; i < tets; ++i)
      if (distance[j][i] <= radius) allowed[i].push_back(j + 1);
  MuscleGeometry S(muscles, allowed);
  for (int i = 0; i < tets; ++i) {
    VecX w = VecX::Zero(muscles + 1);
    int inside = 0;
    for (int j = 0; j < muscles; ++j)
      if (distance[j][i] <= 0.0) ++inside;
    if (inside == 0) {
      w[0] = 1.0;
    } else {
      for (int j = 0; j < muscles; ++j)
        if (distance[j][i] <= 0.0) w[j + 1] = 1.0 / inside;
    }
    S.setRow(i, w);
  }
  return S;
}

std::vector<Vec3> tetCentroids(const TetMesh& mesh) {
  std::vector<Vec3> c(mesh.tetCount());
  for (int t = 0; t < mesh.tetCount(); ++t) {
    Vec3 s = Vec3::Zero();
    for (int k = 0; k < 4; ++k) s += mesh.vertices.row(mesh.tets(t, k)).transpose();
    c[t] = s / 4.0;
  }
  return c;
}

}  // namespace softfit::face

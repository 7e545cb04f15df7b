#include "forward/scene/scene_builder.h"

#include <algorithm>

#include "forward/errors.h"
#include "forward/mesh/node_selection.h"
#include "forward/mesh/procedural_box.h"
#include "forward/mesh/read_tet_mesh.h"

namespace softfit {

namespace {

TetMesh loadGeometry(const SceneDescription& scene) {
  if (scene.box) {
    const BoxGeometry& b = *scene.box;
    return makeBoxMesh(b.extent.min, b.extent.max, b.cells[0], b.cells[1], b.cells[2]);
  }
  const MeshGeometry& g = *scene.mesh;
  SurfaceMeshingOptions options;
  options.maxTetVolume = g.maxTetVolume;
  TetMesh mesh = readTetMesh(g.file, options);
  mesh.vertices *= g.scale;
  mesh.vertices.rowwise() += g.translate.transpose();
  return mesh;
}

bool contains(const BoxRegion& box, const Vec3& p) {
  return (p.array() >= box.min.array()).all() && (p.array() <= box.max.array()).all();
}

}  // namespace

std::vector<int> selectNodes(const TetMesh& mesh, const NodeSelector& selector, const std::string& field) {
  std::vector<int> nodes = selector.nodes;
  for (int n : nodes)
    if (n < 0 || n >= mesh.vertexCount())
      throw InputError(field + ".nodes: index " + std::to_string(n) + " out of range (mesh has " +
                       std::to_string(mesh.vertexCount()) + " nodes)");
  if (selector.box) {
    const std::vector<int> inBox = nodesInBox(mesh, selector.box->min, selector.box->max);
    nodes.insert(nodes.end(), inBox.begin(), inBox.end());
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  if (nodes.empty()) throw InputError(field + ": selects no mesh node");
  return nodes;
}

BuiltScene buildScene(const SceneDescription& scene) {
  try {
    BuiltScene built;
    built.mesh = loadGeometry(scene);
    validateTetMesh(built.mesh);
    built.surface = boundaryFaces(built.mesh);
    const TetMesh& mesh = built.mesh;
    const int tets = mesh.tetCount();

    // Per-element material: the base values, overridden by the last region containing
    // the element's centroid.
    const MaterialSettings& m = scene.material;
    std::vector<LameParameters> lame(tets);
    VecX density(tets);
    for (int t = 0; t < tets; ++t) {
      Vec3 centroid = Vec3::Zero();
      for (int k = 0; k < 4; ++k) centroid += mesh.vertices.row(mesh.tets(t, k)).transpose() / 4.0;
      double youngs = m.youngs, poisson = m.poisson, rho = m.density;
      for (const auto& region : m.regions) {
        if (!contains(region.box, centroid)) continue;
        youngs = region.youngs.value_or(youngs);
        poisson = region.poisson.value_or(poisson);
        rho = region.density.value_or(rho);
      }
      lame[t] = lameFromYoungPoisson(youngs, poisson, "material");
      density[t] = rho;
    }
    built.model = std::make_unique<PhysicalModel>(mesh.restPositions(), buildTetElements(mesh), m.model, lame, density);
    PhysicalModel& model = *built.model;
    model.gravity = scene.gravity;
    model.damping = scene.damping;

    if (scene.ground) {
      std::vector<int> surfaceNodes(built.surface.data(), built.surface.data() + built.surface.size());
      std::sort(surfaceNodes.begin(), surfaceNodes.end());
      surfaceNodes.erase(std::unique(surfaceNodes.begin(), surfaceNodes.end()), surfaceNodes.end());
      model.ground = GroundContact(*scene.ground, surfaceNodes);
    }

    std::vector<DirichletGroup> groups;
    std::vector<char> constrained(mesh.vertexCount(), 0);
    for (size_t i = 0; i < scene.dirichlet.size(); ++i) {
      DirichletGroup g = scene.dirichlet[i].motion;
      g.nodes = selectNodes(mesh, scene.dirichlet[i].select, "dirichlet[" + std::to_string(i) + "]");
      for (int n : g.nodes) {
        if (constrained[n])
          throw InputError("dirichlet[" + std::to_string(i) + "]: node " + std::to_string(n) +
                           " is already constrained by an earlier group");
        constrained[n] = 1;
      }
      groups.push_back(std::move(g));
    }
    model.dirichlet = DirichletBoundary(groups, model.restPositions());

    std::vector<AttachmentSpring> springs;
    for (size_t i = 0; i < scene.attachments.size(); ++i) {
      const AttachmentSettings& a = scene.attachments[i];
      for (int n : selectNodes(mesh, a.select, "attachments[" + std::to_string(i) + "]"))
        springs.push_back({n, model.restPositions().segment<3>(3 * n) + a.offset, a.stiffness});
    }
    model.attachments = AttachmentSprings(springs);

    // Initial state: translated rest shape, velocity v0 + w x (X - c).
    built.initial = restState(model);
    Vec3 center = Vec3::Zero();
    if (scene.initial.center) {
      center = *scene.initial.center;
    } else {
      for (int i = 0; i < model.nodeCount(); ++i)
        center += model.mass()[3 * i] * model.restPositions().segment<3>(3 * i);
      center /= model.totalMass();
    }
    for (int i = 0; i < model.nodeCount(); ++i) {
      if (constrained[i]) continue;
      const Vec3 X = model.restPositions().segment<3>(3 * i);
      built.initial.x.segment<3>(3 * i) = X + scene.initial.translation;
      built.initial.v.segment<3>(3 * i) = scene.initial.velocity + scene.initial.angularVelocity.cross(X - center);
    }
    model.dirichlet.applyPositions(0.0, built.initial.x);
    model.dirichlet.applyVelocities(0.0, built.initial.v);
    return built;
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.rfind(scene.source, 0) == 0) throw;
    throw InputError(scene.source + ": " + what);
  }
}

}  // namespace softfit

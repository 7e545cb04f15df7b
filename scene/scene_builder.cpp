#include "scene/scene_builder.h"

#include <algorithm>
#include <cstdio>

#include "forward/errors.h"
#include "forward/mesh/procedural_box.h"
#include "forward/mesh/read_tet_mesh.h"
#include "forward/mesh/obj_surface_reader.h"
#include "grid/embedded_surface_mesh.h"
#include "grid/grid_contact_points.h"
#include "grid/sdf_lattice.h"

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

// The geometry part of a built scene: nodes, elements, output cells and surface, and the
// nodes that can touch the ground.
struct Geometry {
  VecX rest;
  std::vector<Element> elements;
  std::vector<Vec3> centroids;  // per element, for material regions
  std::vector<ContactPoint> contactPoints;
};

Geometry buildTetGeometry(const SceneDescription& scene, BuiltScene& built) {
  built.mesh = loadGeometry(scene);
  validateTetMesh(built.mesh);
  built.surface = boundaryFaces(built.mesh);
  const TetMesh& mesh = built.mesh;
  Geometry g;
  g.rest = mesh.restPositions();
  g.elements = buildTetElements(mesh);
  g.centroids.resize(mesh.tetCount());
  for (int t = 0; t < mesh.tetCount(); ++t) {
    Vec3 centroid = Vec3::Zero();
    for (int k = 0; k < 4; ++k) centroid += mesh.vertices.row(mesh.tets(t, k)).transpose() / 4.0;
    g.centroids[t] = centroid;
  }
  built.cells = tetCells(mesh.tets);
  built.embeddedSurface = identityEmbedding(mesh.vertexCount(), built.surface);
  g.contactPoints = surfaceContactPoints(built.embeddedSurface, g.rest);
  return g;
}

Geometry buildGridGeometry(const SdfGeometry& sdf, BuiltScene& built) {
  const SdfPtr field = makeSdf(sdf.shape);
  LatticeOptions options;
  options.cellSize = sdf.cellSize;
  options.snapFraction = sdf.snapFraction;
  options.snapDistance = sdf.snapDistance;
  options.refinement = sdf.refinement;
  SdfLattice lattice = [&] {
    try {
      return sampleSdfLattice(*field, options);
    } catch (const InputError& e) {
      throw InputError(sdf.shape.field + ": " + e.what());
    }
  }();
  std::shared_ptr<const CutCellGrid> grid = [&] {
    try {
      return std::make_shared<const CutCellGrid>(std::move(lattice));
    } catch (const InputError& e) {
      throw InputError(sdf.shape.field + ": " + e.what());
    }
  }();
  built.grid = grid;
  Geometry g;
  g.rest = grid->restPositions();
  g.elements = buildCutCellElements(*grid, sdf.quadrature);
  g.centroids.resize(g.elements.size());
  for (size_t e = 0; e < g.elements.size(); ++e) {
    const Element& el = g.elements[e];
    Vec3 sum = Vec3::Zero();
    double volume = 0.0;
    for (const auto& q : el.quadrature) {
      Vec3 X = Vec3::Zero();
      for (int a = 0; a < el.nodeCount(); ++a) X += q.N[a] * g.rest.segment<3>(3 * el.nodes[a]);
      sum += q.weight * X;
      volume += q.weight;
    }
    g.centroids[e] = sum / volume;
  }
  for (const GridCell& c : grid->cells()) built.cells.add(VtkCellType::kHexahedron, c.nodes.data(), 8);
  if (sdf.surfaceMesh) {
    try {
      built.embeddedSurface = embedSurfaceMesh(*grid, readObjSurface(*sdf.surfaceMesh));
    } catch (const InputError& e) {
      throw InputError(sdf.shape.field + ".surface_mesh: " + e.what());
    }
  } else {
    built.embeddedSurface = extractEmbeddedSurface(*grid, sdf.surface);
  }
  // Ground contact points, each with its rest area (grid_contact_points.h).
  g.contactPoints = sdf.contactPoints == GridContactPoints::Surface
                        ? surfaceContactPoints(built.embeddedSurface, g.rest)
                        : edgeCrossingContactPoints(*grid);
  return g;
}

}  // namespace

std::string BuiltScene::summary() const {
  char line[160];
  if (grid) {
    std::snprintf(line, sizeof(line), "%d nodes, %d hex cells (%d cut), cell size %g, surface %d triangles",
                  grid->nodeCount(), grid->cellCount(), grid->partialCellCount(), grid->cellSize(),
                  embeddedSurface.triangleCount());
  } else {
    std::snprintf(line, sizeof(line), "%d nodes, %d tets", mesh.vertexCount(), mesh.tetCount());
  }
  return line;
}

std::vector<int> selectNodes(const VecX& restPositions, const NodeSelector& selector, const std::string& field) {
  const int nodeCount = static_cast<int>(restPositions.size() / 3);
  std::vector<int> nodes = selector.nodes;
  for (int n : nodes)
    if (n < 0 || n >= nodeCount)
      throw InputError(field + ".nodes: index " + std::to_string(n) + " out of range (mesh has " +
                       std::to_string(nodeCount) + " nodes)");
  if (selector.box) {
    const auto P = Eigen::Map<const Eigen::Matrix<double, 3, Eigen::Dynamic>>(restPositions.data(), 3, nodeCount);
    // Tolerance relative to the body size only, so huge boxes do not widen it.
    const double scale = nodeCount > 0 ? (P.rowwise().maxCoeff() - P.rowwise().minCoeff()).norm() : 1.0;
    const Vec3 lo = selector.box->min.array() - 1e-9 * scale;
    const Vec3 hi = selector.box->max.array() + 1e-9 * scale;
    for (int v = 0; v < nodeCount; ++v) {
      const Vec3 x = P.col(v);
      if ((x.array() >= lo.array()).all() && (x.array() <= hi.array()).all()) nodes.push_back(v);
    }
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  if (nodes.empty()) throw InputError(field + ": selects no mesh node");
  return nodes;
}

std::vector<int> selectNodes(const TetMesh& mesh, const NodeSelector& selector, const std::string& field) {
  return selectNodes(mesh.restPositions(), selector, field);
}

BuiltScene buildScene(const SceneDescription& scene) {
  try {
    BuiltScene built;
    Geometry geometry = scene.sdf ? buildGridGeometry(*scene.sdf, built) : buildTetGeometry(scene, built);
    const int elementCount = static_cast<int>(geometry.elements.size());

    // Per-element material: the base values, overridden by the last region containing
    // the element's centroid (of its inside part, for cut cells).
    const MaterialSettings& m = scene.material;
    std::vector<LameParameters> lame(elementCount);
    VecX density(elementCount);
    built.elementRegion.assign(elementCount, 0);
    built.youngs.resize(elementCount);
    built.poisson.resize(elementCount);
    for (int e = 0; e < elementCount; ++e) {
      double youngs = m.youngs, poisson = m.poisson, rho = m.density;
      for (size_t r = 0; r < m.regions.size(); ++r) {
        const MaterialRegion& region = m.regions[r];
        if (!contains(region.box, geometry.centroids[e])) continue;
        youngs = region.youngs.value_or(youngs);
        poisson = region.poisson.value_or(poisson);
        rho = region.density.value_or(rho);
        built.elementRegion[e] = static_cast<int>(r) + 1;
      }
      lame[e] = lameFromYoungPoisson(youngs, poisson, "material");
      density[e] = rho;
      built.youngs[e] = youngs;
      built.poisson[e] = poisson;
    }
    built.model = std::make_unique<PhysicalModel>(std::move(geometry.rest), std::move(geometry.elements), m.model,
                                                  lame, density);
    PhysicalModel& model = *built.model;
    model.gravity = scene.gravity;
    model.damping = scene.damping;
    if (built.grid) model.nodeLattice = built.grid->nodeLatticeCoordinates();
    if (scene.ground) model.ground = GroundContact(*scene.ground, std::move(geometry.contactPoints));

    const VecX& rest = model.restPositions();
    std::vector<DirichletGroup> groups;
    std::vector<char> constrained(model.nodeCount(), 0);
    for (size_t i = 0; i < scene.dirichlet.size(); ++i) {
      DirichletGroup g = scene.dirichlet[i].motion;
      g.nodes = selectNodes(rest, scene.dirichlet[i].select, "dirichlet[" + std::to_string(i) + "]");
      for (int n : g.nodes) {
        if (constrained[n])
          throw InputError("dirichlet[" + std::to_string(i) + "]: node " + std::to_string(n) +
                           " is already constrained by an earlier group");
        constrained[n] = 1;
      }
      groups.push_back(std::move(g));
    }
    model.dirichlet = DirichletBoundary(groups, rest);

    std::vector<AttachmentSpring> springs;
    for (size_t i = 0; i < scene.attachments.size(); ++i) {
      const AttachmentSettings& a = scene.attachments[i];
      for (int n : selectNodes(rest, a.select, "attachments[" + std::to_string(i) + "]"))
        springs.push_back({n, rest.segment<3>(3 * n) + a.offset, a.stiffness});
    }
    model.attachments = AttachmentSprings(springs);

    // Initial state: translated rest shape, velocity v0 + w x (X - c).
    built.initial = restState(model);
    built.motion.velocity = scene.initial.velocity;
    built.motion.angularVelocity = scene.initial.angularVelocity;
    built.motion.center = scene.initial.center ? *scene.initial.center : restCenterOfMass(model);
    for (int i = 0; i < model.nodeCount(); ++i)
      if (!constrained[i]) built.initial.x.segment<3>(3 * i) = rest.segment<3>(3 * i) + scene.initial.translation;
    applyInitialMotion(model, built.motion, built.initial.v);
    model.dirichlet.applyPositions(0.0, built.initial.x);
    model.dirichlet.applyVelocities(0.0, built.initial.v);
    return built;
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.rfind(scene.source, 0) == 0) throw;
    throw InputError(scene.source + ": " + what);
  }
}

TrajectorySetup trajectorySetup(const SceneDescription& description, BuiltScene& scene) {
  TrajectorySetup setup;
  setup.model = scene.model.get();
  setup.integrator = description.integrator;
  setup.dt = description.dt;
  setup.steps = description.steps;
  setup.initial = scene.initial;
  return setup;
}

}  // namespace softfit

#include "scene/scene_loader.h"

#include <cmath>
#include <filesystem>

#include "forward/errors.h"
#include "forward/integrators/integrator_settings.h"
#include "forward/io/json_fields.h"
#include "forward/mesh/procedural_box.h"
#include "forward/value_limits.h"
#include "scene/step_solver_selection.h"

namespace softfit {

namespace {

constexpr double kDefaultGroundStiffnessPerArea = 1e7;  // N/m^3, see "ground" below

BoxRegion parseBox(const JsonFields& f) {
  f.allowOnly({"min", "max"});
  BoxRegion b{f.vec3("min"), f.vec3("max")};
  for (int i = 0; i < 3; ++i)
    if (!(b.min[i] <= b.max[i])) throw InputError(f.path() + ": min must not exceed max");
  return b;
}

NodeSelector parseSelector(const JsonFields& f) {
  NodeSelector s;
  if (f.has("box")) s.box = parseBox(f.object("box"));
  if (f.has("nodes")) s.nodes = f.integerArray("nodes");
  if (!s.box && s.nodes.empty()) throw InputError(f.path() + ": needs \"box\" or \"nodes\" to select nodes");
  return s;
}

MaterialSettings parseMaterial(const JsonFields& f) {
  f.allowOnly({"model", "youngs_modulus", "poisson_ratio", "density", "regions"});
  MaterialSettings m;
  m.model = parseMaterialModel(f.string("model", "corotated"), f.field("model"));
  m.youngs = f.number("youngs_modulus", m.youngs);
  m.poisson = f.number("poisson_ratio", m.poisson);
  m.density = f.positive("density", m.density);
  requireInRange(m.density, kDensityRange, f.field("density"));
  requireInRange(m.youngs, kYoungsModulusRange, f.field("youngs_modulus"));
  lameFromYoungPoisson(m.youngs, m.poisson, f.path());
  if (f.has("regions")) {
    for (const auto& r : f.objectArray("regions")) {
      r.allowOnly({"box", "youngs_modulus", "poisson_ratio", "density"});
      MaterialRegion region;
      region.box = parseBox(r.object("box"));
      if (r.has("youngs_modulus")) region.youngs = r.number("youngs_modulus");
      if (region.youngs) requireInRange(*region.youngs, kYoungsModulusRange, r.field("youngs_modulus"));
      if (r.has("poisson_ratio")) region.poisson = r.number("poisson_ratio");
      if (r.has("density")) region.density = r.positive("density", 1.0);
      if (region.density) requireInRange(*region.density, kDensityRange, r.field("density"));
      lameFromYoungPoisson(region.youngs.value_or(m.youngs), region.poisson.value_or(m.poisson), r.path());
      m.regions.push_back(region);
    }
  }
  return m;
}

DirichletSettings parseDirichlet(const JsonFields& f) {
  f.allowOnly({"box", "nodes", "motion"});
  DirichletSettings d;
  d.select = parseSelector(f);
  if (f.has("motion")) {
    const JsonFields m = f.object("motion");
    m.allowOnly({"type", "velocity", "axis", "center", "angular_velocity"});
    const std::string type = m.string("type", "fixed");
    if (type == "fixed") {
      d.motion.motion = DirichletGroup::Motion::Fixed;
    } else if (type == "linear") {
      d.motion.motion = DirichletGroup::Motion::Linear;
      d.motion.velocity = m.vec3("velocity");
      for (int c = 0; c < 3; ++c) requireMagnitude(d.motion.velocity[c], kMaxSpeed, m.field("velocity"));
    } else if (type == "rotation") {
      d.motion.motion = DirichletGroup::Motion::Rotation;
      d.motion.axis = m.vec3("axis");
      if (d.motion.axis.norm() == 0.0) throw InputError(m.field("axis") + ": must be non-zero");
      d.motion.center = m.vec3("center", Vec3::Zero());
      d.motion.angularVelocity = m.number("angular_velocity");
      requireMagnitude(d.motion.angularVelocity, kMaxAngularSpeed, m.field("angular_velocity"));
      for (int c = 0; c < 3; ++c) requireMagnitude(d.motion.center[c], kMaxCoordinate, m.field("center"));
    } else {
      throw InputError(m.field("type") + " = \"" + type + "\": unknown motion (valid: fixed, linear, rotation)");
    }
  }
  return d;
}

std::string resolvePath(const std::string& file, const std::string& baseDirectory) {
  std::filesystem::path path = file;
  if (path.is_relative()) path = std::filesystem::path(baseDirectory) / path;
  return path.lexically_normal().string();
}

double positiveNumber(const JsonFields& f, const std::string& key) {
  const double v = f.number(key);
  if (!(v > 0.0) || !std::isfinite(v)) throw InputError(f.field(key) + ": must be positive");
  return v;
}

// CSG trees are parsed, built and evaluated recursively: a deeper one is refused.
constexpr int kMaxSdfDepth = 64;

// Keys of the grid discretization: they belong to the top-level "sdf" object only.
const std::vector<const char*> kGridKeys = {"cell_size", "snap", "snap_distance", "quadrature",
                                             "refinement", "surface", "contact_points", "surface_mesh",
                                             "min_cell_fraction"};

// A shape's own keys plus the grid keys (any shape can be the top-level object).
std::vector<const char*> shapeKeys(std::initializer_list<const char*> own) {
  std::vector<const char*> keys(own);
  keys.insert(keys.end(), kGridKeys.begin(), kGridKeys.end());
  return keys;
}

// One node of the SDF tree at `depth` (0 = top level).
SdfShape parseSdfShape(const JsonFields& f, const std::string& baseDirectory, int depth) {
  if (depth > kMaxSdfDepth)
    throw InputError(f.path() + ": SDF shapes nested more than " + std::to_string(kMaxSdfDepth) + " levels deep");
  if (depth > 0)
    for (const char* key : kGridKeys)
      if (f.has(key)) throw InputError(f.field(key) + ": only allowed on the top-level \"sdf\" object");
  SdfShape s;
  s.field = f.path();
  s.type = parseSdfShapeType(f.string("type"), f.field("type"));
  using T = SdfShape::Type;
  switch (s.type) {
    case T::Sphere:
      f.allowOnly(shapeKeys({"type", "center", "radius"}));
      s.center = f.vec3("center", Vec3::Zero());
      s.radius = positiveNumber(f, "radius");
      break;
    case T::Box:
      f.allowOnly(shapeKeys({"type", "center", "half_extents", "min", "max"}));
      if (f.has("min") || f.has("max")) {
        if (f.has("center") || f.has("half_extents"))
          throw InputError(f.path() + ": give either \"min\"/\"max\" or \"center\"/\"half_extents\"");
        const Vec3 lo = f.vec3("min"), hi = f.vec3("max");
        for (int i = 0; i < 3; ++i)
          if (!(lo[i] < hi[i])) throw InputError(f.path() + ": min must be below max on every axis");
        s.center = 0.5 * (lo + hi);
        s.halfExtents = 0.5 * (hi - lo);
      } else {
        s.center = f.vec3("center", Vec3::Zero());
        s.halfExtents = f.vec3("half_extents");
        for (int i = 0; i < 3; ++i)
          if (!(s.halfExtents[i] > 0.0)) throw InputError(f.field("half_extents") + ": must be positive");
      }
      break;
    case T::Torus:
      f.allowOnly(shapeKeys({"type", "center", "axis", "major_radius", "minor_radius"}));
      s.center = f.vec3("center", Vec3::Zero());
      s.axis = f.vec3("axis", Vec3::UnitY());
      if (s.axis.norm() == 0.0) throw InputError(f.field("axis") + ": must be non-zero");
      s.majorRadius = positiveNumber(f, "major_radius");
      s.minorRadius = positiveNumber(f, "minor_radius");
      break;
    case T::Capsule:
      f.allowOnly(shapeKeys({"type", "a", "b", "radius"}));
      s.a = f.vec3("a");
      s.b = f.vec3("b");
      s.radius = positiveNumber(f, "radius");
      break;
    case T::Union:
    case T::Difference:
    case T::Intersection: {
      f.allowOnly(shapeKeys({"type", "children"}));
      const std::vector<JsonFields> children = f.objectArray("children");
      const size_t minimum = s.type == T::Difference ? 2 : 1;
      if (children.size() < minimum)
        throw InputError(f.field("children") + ": needs at least " + std::to_string(minimum) + " shapes");
      for (const auto& child : children) s.children.push_back(parseSdfShape(child, baseDirectory, depth + 1));
      break;
    }
    case T::Volume:
      f.allowOnly(shapeKeys({"type", "file"}));
      s.file = resolvePath(f.string("file"), baseDirectory);
      break;
    case T::Mesh:
      f.allowOnly(shapeKeys({"type", "file", "scale", "translate", "sign"}));
      s.file = resolvePath(f.string("file"), baseDirectory);
      s.scale = f.positive("scale", 1.0);
      s.translate = f.vec3("translate", Vec3::Zero());
      if (f.has("sign")) {
        const std::string sign = f.string("sign");
        if (sign == "winding_number") s.meshSign = SdfShape::MeshSign::WindingNumber;
        else if (sign != "pseudonormal")
          throw InputError(f.field("sign") + " = \"" + sign +
                           "\": unknown (valid: pseudonormal (closed surfaces), winding_number (any surface))");
      }
      break;
  }
  return s;
}

SdfGeometry parseSdfGeometry(const JsonFields& f, const std::string& baseDirectory) {
  SdfGeometry g;
  g.shape = parseSdfShape(f, baseDirectory, 0);
  g.cellSize = positiveNumber(f, "cell_size");
  g.snapFraction = f.number("snap", g.snapFraction);
  if (!(g.snapFraction >= 0.0 && g.snapFraction < 0.5)) throw InputError(f.field("snap") + ": must be in [0, 0.5)");
  // Thesis convention: snap |phi| below an absolute distance (world units), not a fraction of h.
  if (f.has("snap_distance")) {
    if (f.has("snap"))
      throw InputError(f.path() + ": give either \"snap\" (fraction of cell_size) or \"snap_distance\" (absolute), not both");
    const double d = f.number("snap_distance");
    if (!(d >= 0.0 && d < 0.5 * g.cellSize))
      throw InputError(f.field("snap_distance") + ": must be in [0, cell_size / 2)");
    g.snapDistance = d;
  }
  g.refinement = f.integer("refinement", g.refinement);
  if (g.refinement < 1 || g.refinement > 16) throw InputError(f.field("refinement") + ": must be in [1, 16]");
  const std::string surface = f.string("surface", "nodes");
  if (surface == "nodes") g.surface = SurfaceResolution::Nodes;
  else if (surface == "samples") g.surface = SurfaceResolution::Samples;
  else throw InputError(f.field("surface") + " = \"" + surface + "\": unknown surface (valid: nodes, samples)");
  if (f.has("surface_mesh")) {
    if (f.has("surface"))
      throw InputError(f.path() + ": give either \"surface\" (marching tets) or \"surface_mesh\" (a file), not both");
    g.surfaceMesh = resolvePath(f.string("surface_mesh"), baseDirectory);
  }
  const std::string contact = f.string("contact_points", "lattice_edges");
  if (contact == "lattice_edges") g.contactPoints = GridContactPoints::LatticeEdges;
  else if (contact == "surface") g.contactPoints = GridContactPoints::Surface;
  else
    throw InputError(f.field("contact_points") + " = \"" + contact +
                     "\": unknown contact points (valid: lattice_edges, surface)");
  // Partial-cell rule: "compressed" (default: 4 points per clipped sub-tet, compressed to
  // at most 11), "sub_tets" (all sub-tet points) or "centroid" (1 point per sub-tet).
  const std::string rule = f.string("quadrature", "compressed");
  g.quadrature.compress = rule == "compressed";
  if (rule == "compressed" || rule == "sub_tets") g.quadrature.rule = SubTetRule::FourPoint;
  else if (rule == "centroid") g.quadrature.rule = SubTetRule::Centroid;
  else
    throw InputError(f.field("quadrature") + " = \"" + rule + "\": unknown rule (valid: compressed, sub_tets, centroid)");
  // Volume-fraction floor of partial cells (cut_cell_quadrature.h); 0 turns it off.
  g.quadrature.minCellFraction = f.number("min_cell_fraction", g.quadrature.minCellFraction);
  if (!(g.quadrature.minCellFraction >= 0.0 && g.quadrature.minCellFraction < 1.0))
    throw InputError(f.field("min_cell_fraction") + ": must be in [0, 1) (0 = off)");
  return g;
}

IntegratorSettings parseIntegrator(const JsonFields& f) {
  f.allowOnly({"type", "theta", "eigenvalue_filter", "max_iterations", "tolerance", "pcg_tolerance", "preconditioner",
               "solver"});
  IntegratorSettings s;
  s.type = parseIntegratorType(f.string("type", "backward_euler"), f.field("type"));
  s.theta = f.number("theta", s.theta);
  if (!(s.theta >= 0.5 && s.theta < 1.0)) throw InputError(f.field("theta") + ": must be in [0.5, 1)");
  s.filter = parseEigenvalueFilter(f.string("eigenvalue_filter", "exact_first"), f.field("eigenvalue_filter"));
  s.newton.maxIterations = f.integer("max_iterations", s.newton.maxIterations);
  if (s.newton.maxIterations < 1) throw InputError(f.field("max_iterations") + ": must be at least 1");
  s.newton.stepTolerance = f.positive("tolerance", s.newton.stepTolerance);
  s.pcgTolerance = f.positive("pcg_tolerance", s.pcgTolerance);
  s.preconditioner = parsePcgPreconditioner(f.string("preconditioner", "auto"), f.field("preconditioner"));
  if (f.has("solver")) s.stepSolver = parseStepSolverChoice(f.object("solver"), s.type);
  return s;
}

SceneDescription parseSceneFields(const JsonFields& root, const std::string& source, const std::string& baseDirectory) {
  root.allowOnly({"name", "mesh", "box", "sdf", "material", "gravity", "damping", "ground", "dirichlet", "attachments",
                  "initial", "integrator", "time", "output"});
  SceneDescription scene;
  scene.source = source;
  if (static_cast<int>(root.has("mesh")) + static_cast<int>(root.has("box")) + static_cast<int>(root.has("sdf")) != 1)
    throw InputError("exactly one of \"mesh\" or \"box\" (tet mesh) or \"sdf\" (cut-cell grid) must be given");
  if (root.has("sdf")) {
    scene.sdf = parseSdfGeometry(root.object("sdf"), baseDirectory);
  } else if (root.has("mesh")) {
    const JsonFields m = root.object("mesh");
    m.allowOnly({"file", "scale", "translate", "max_tet_volume"});
    MeshGeometry g;
    std::filesystem::path file = m.string("file");
    if (file.is_relative()) file = std::filesystem::path(baseDirectory) / file;
    g.file = file.lexically_normal().string();
    g.scale = m.positive("scale", 1.0);
    g.translate = m.vec3("translate", Vec3::Zero());
    g.maxTetVolume = m.number("max_tet_volume", 0.0);
    if (g.maxTetVolume < 0.0) throw InputError(m.field("max_tet_volume") + ": must be >= 0 (0 = no limit)");
    scene.mesh = g;
  } else {
    const JsonFields b = root.object("box");
    b.allowOnly({"min", "max", "cells"});
    BoxGeometry box;
    box.extent.min = b.vec3("min");
    box.extent.max = b.vec3("max");
    const std::vector<int> cells = b.integerArray("cells");
    if (cells.size() != 3 || cells[0] < 1 || cells[1] < 1 || cells[2] < 1)
      throw InputError(b.field("cells") + ": expected 3 positive integers");
    checkBoxMeshSize(cells[0], cells[1], cells[2], b.field("cells"));
    box.cells = Eigen::Vector3i(cells[0], cells[1], cells[2]);
    for (int i = 0; i < 3; ++i)
      if (!(box.extent.min[i] < box.extent.max[i])) throw InputError(b.path() + ": min must be below max on every axis");
    scene.box = box;
  }
  if (root.has("material")) scene.material = parseMaterial(root.object("material"));
  scene.gravity = root.vec3("gravity", scene.gravity);
  for (int c = 0; c < 3; ++c) requireInRange(scene.gravity[c], kGravityRange, root.field("gravity"));
  if (root.has("damping")) {
    const JsonFields d = root.object("damping");
    d.allowOnly({"alpha1", "alpha2"});
    scene.damping.alpha1 = d.number("alpha1", 0.0);
    scene.damping.alpha2 = d.number("alpha2", 0.0);
    requireInRange(scene.damping.alpha1, kDampingRange, d.field("alpha1"));
    requireInRange(scene.damping.alpha2, kDampingRange, d.field("alpha2"));
  }
  if (root.has("ground")) {
    const JsonFields g = root.object("ground");
    g.allowOnly({"normal", "offset", "stiffness", "sharpness"});
    GroundPlane plane;
    plane.normal = g.vec3("normal", plane.normal);
    if (plane.normal.norm() == 0.0) throw InputError(g.field("normal") + ": must be non-zero");
    plane.normal.normalize();
    plane.offset = g.number("offset", 0.0);
    requireInRange(plane.offset, kCoordinateRange, g.field("offset"));
    // Per unit area of the rest surface (N/m^3): each contact point's spring is k A_p
    // (ground_contact.h). 1e7: a 0.3 m box face resting on the floor is pushed with
    // 6.9e4 Pa at zero distance, as the former 1e4 per point did at a 3 cm point spacing.
    plane.stiffness = g.positive("stiffness", kDefaultGroundStiffnessPerArea);
    plane.sharpness = g.positive("sharpness", plane.sharpness);
    scene.ground = plane;
  }
  if (root.has("dirichlet"))
    for (const auto& d : root.objectArray("dirichlet")) scene.dirichlet.push_back(parseDirichlet(d));
  if (root.has("attachments")) {
    for (const auto& a : root.objectArray("attachments")) {
      a.allowOnly({"box", "nodes", "stiffness", "offset"});
      AttachmentSettings s;
      s.select = parseSelector(a);
      s.stiffness = a.positive("stiffness", 1.0);
      s.offset = a.vec3("offset", Vec3::Zero());
      scene.attachments.push_back(s);
    }
  }
  if (root.has("initial")) {
    const JsonFields i = root.object("initial");
    i.allowOnly({"velocity", "angular_velocity", "center", "translation"});
    scene.initial.velocity = i.vec3("velocity", Vec3::Zero());
    scene.initial.angularVelocity = i.vec3("angular_velocity", Vec3::Zero());
    for (int c = 0; c < 3; ++c) {
      requireInRange(scene.initial.velocity[c], kSpeedRange, i.field("velocity"));
      requireInRange(scene.initial.angularVelocity[c], kAngularSpeedRange, i.field("angular_velocity"));
    }
    if (i.has("center")) scene.initial.center = i.vec3("center");
    scene.initial.translation = i.vec3("translation", Vec3::Zero());
  }
  if (root.has("integrator")) scene.integrator = parseIntegrator(root.object("integrator"));
  if (scene.integrator.type == IntegratorType::NewmarkTheta) requireNewmarkThetaMaterial(scene.material.model);
  if (root.has("time")) {
    const JsonFields t = root.object("time");
    t.allowOnly({"dt", "steps"});
    scene.dt = t.positive("dt", scene.dt);
    requireTimeStep(scene.dt, t.field("dt"));
    scene.steps = t.integer("steps", scene.steps);
    if (scene.steps < 0) throw InputError(t.field("steps") + ": must be >= 0");
  }
  if (root.has("output")) {
    const JsonFields o = root.object("output");
    o.allowOnly({"every", "vtu", "surface_obj", "surface_vtu"});
    scene.output.every = o.integer("every", 1);
    if (scene.output.every < 1) throw InputError(o.field("every") + ": must be at least 1");
    scene.output.vtu = o.boolean("vtu", true);
    scene.output.surfaceObj = o.boolean("surface_obj", true);
    if (o.has("surface_vtu")) scene.output.surfaceVtu = o.boolean("surface_vtu", false);
  }
  return scene;
}

}  // namespace

SceneDescription parseScene(const nlohmann::json& document, const std::string& source, const std::string& baseDirectory) {
  try {
    return parseSceneFields(JsonFields(document, ""), source, baseDirectory);
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.what());
  }
}

SceneDescription loadScene(const std::string& path) {
  const nlohmann::json document = readJsonFile(path);
  return parseScene(document, path, std::filesystem::path(path).parent_path().string());
}

}  // namespace softfit

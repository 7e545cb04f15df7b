#include "face/face_io.h"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "face/activation.h"
#include "face/muscle_surface.h"
#include "forward/energies/lumped_mass.h"
#include "forward/errors.h"
#include "forward/value_limits.h"
#include "forward/io/obj_writer.h"
#include "forward/io/vtu_writer.h"
#include "forward/mesh/input_file.h"
#include "forward/mesh/obj_surface_reader.h"
#include "forward/mesh/read_tet_mesh.h"
#include "forward/io/json_fields.h"
#include "observations/ply_io.h"

namespace softfit::face {

namespace fs = std::filesystem;

namespace {

std::string resolve(const std::string& base, const std::string& file) {
  const fs::path p(file);
  return p.is_absolute() ? file : (fs::path(base).parent_path() / p).string();
}

std::vector<int> readIndexFile(const std::string& path) {
  std::ifstream in = openInputFile(path, "node index file");
  std::vector<int> v;
  std::string token;
  while (in >> token) {
    try {
      std::size_t used = 0;
      v.push_back(std::stoi(token, &used));
      if (used != token.size()) throw std::invalid_argument(token);
    } catch (const std::exception&) {
      throw InputError(path + ": \"" + token + "\" is not a node index");
    }
  }
  return v;
}

// A node list given inline or as a file name.
std::vector<int> nodeList(const nlohmann::json& object, const std::string& key, const std::string& file,
                          const std::string& field) {
  const auto& v = object.at(key);
  if (v.is_string()) return readIndexFile(resolve(file, v.get<std::string>()));
  JsonFields f(object, "");
  try {
    return f.integerArray(key);
  } catch (const InputError& e) {
    throw InputError(file + ": " + field + ": " + e.what());
  }
}

void writeIndexFile(const std::string& path, const std::vector<int>& v) {
  std::ofstream out(path);
  for (std::size_t i = 0; i < v.size(); ++i) out << v[i] << ((i + 1) % 20 == 0 ? '\n' : ' ');
  out << '\n';
  if (!out) throw InputError(path + ": cannot write");
}

void writeTetgen(const std::string& base, const TetMesh& mesh) {
  std::ofstream node(base + ".node"), ele(base + ".ele");
  node << std::setprecision(17) << mesh.vertexCount() << " 3 0 0\n";
  for (int v = 0; v < mesh.vertexCount(); ++v)
    node << v << ' ' << mesh.vertices(v, 0) << ' ' << mesh.vertices(v, 1) << ' ' << mesh.vertices(v, 2) << '\n';
  ele << mesh.tetCount() << " 4 0\n";
  for (int t = 0; t < mesh.tetCount(); ++t)
    ele << t << ' ' << mesh.tets(t, 0) << ' ' << mesh.tets(t, 1) << ' ' << mesh.tets(t, 2) << ' ' << mesh.tets(t, 3)
        << '\n';
  if (!node || !ele) throw InputError(base + ".node/.ele: cannot write");
}

nlohmann::json vec(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

}  // namespace

FaceModel loadFaceModel(const std::string& path) {
  const nlohmann::json j = readJsonFile(path);
  JsonFields root(j, "");
  try {
    root.allowOnly({"tet_mesh", "material", "gravity", "body_force", "skull_nodes", "jaw", "muscles",
                    "muscle_radius", "geometry"});
    FaceMaterial material;
    if (root.has("material")) {
      JsonFields m = root.object("material");
      m.allowOnly({"youngs_modulus", "poisson_ratio", "density"});
      material.youngsModulus = m.positive("youngs_modulus", material.youngsModulus);
      material.poissonRatio = m.number("poisson_ratio", material.poissonRatio);
      material.density = m.positive("density", material.density);
    }
    FaceModel model = makeFaceModel(readTetMesh(resolve(path, root.string("tet_mesh"))), material);
    model.gravity = root.vec3("gravity", Vec3::Zero());
    const Vec3 bodyForce = root.vec3("body_force", Vec3::Zero());
    if (bodyForce.squaredNorm() > 0) {
      const VecX volume = lumpedMass(model.elements, model.nodeCount(), VecX::Ones(model.tetCount()));
      model.constantForce.resize(volume.size());
      for (int n = 0; n < model.nodeCount(); ++n) model.constantForce.segment<3>(3 * n) = volume[3 * n] * bodyForce;
    }
    if (root.has("skull_nodes")) model.skullNodes = nodeList(j, "skull_nodes", path, "skull_nodes");
    if (model.skullNodes.empty()) {  // nothing holds the face: a free body the solves cannot pin down
      const std::string where = root.has("skull_nodes") && j.at("skull_nodes").is_string()
                                    ? resolve(path, j.at("skull_nodes").get<std::string>())
                                    : path + ": skull_nodes";
      throw InputError(where + ": no skull node (the face would be a free body); list the nodes fixed to the skull");
    }
    if (root.has("jaw")) {
      JsonFields jaw = root.object("jaw");
      jaw.allowOnly({"nodes", "pivot", "open_axis", "side_axis"});
      model.jawNodes = nodeList(j.at("jaw"), "nodes", path, "jaw.nodes");
      model.jaw.pivot = jaw.vec3("pivot");
      model.jaw.openAxis = jaw.vec3("open_axis", Vec3::UnitX()).normalized();
      model.jaw.sideAxis = jaw.vec3("side_axis", Vec3::UnitY()).normalized();
    }
    std::vector<TriangleSurface> surfaces;
    if (root.has("muscles"))
      for (const JsonFields& m : root.objectArray("muscles")) {
        m.allowOnly({"name", "surface"});
        model.muscleNames.push_back(m.string("name"));
        surfaces.push_back(readObjSurface(resolve(path, m.string("surface"))));
      }
    const double radius = root.positive("muscle_radius", 0.01);
    model.geometry = geometryFromSurfaces(model.mesh, surfaces, radius);
    validateFaceModel(model, path);
    if (root.has("geometry")) model.geometry = readGeometryCsv(resolve(path, root.string("geometry")), model);
    return model;
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.rfind(path, 0) == 0) throw;
    throw InputError(path + ": " + what);
  }
}

PointMatrix readObjVertices(const std::string& path) {
  const fs::path p(path);
  std::string ext = p.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(c));
  if (ext != ".obj") throw InputError(path + ": unsupported scan format (use .obj or .ply)");
  return softfit::readObjVertices(path);  // vertices suffice (correspondence mode)
}

PointMatrix readScanPoints(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(c));
  if (ext == ".ply") {
    PointMatrix points = readPly(path).points;
    for (Eigen::Index i = 0; i < points.rows(); ++i)
      for (int c = 0; c < 3; ++c)
        if (!(std::abs(points(i, c)) <= kMaxCoordinate))
          throw InputError(path + ": vertex " + std::to_string(i) + ": coordinate " + formatValue(points(i, c)) +
                           " is not finite or beyond 1e12 in magnitude");
    return points;
  }
  return readObjVertices(path);
}

std::vector<FaceTarget> loadFaceTargets(const std::string& folder, const FaceModel& model, const ScanReader& reader) {
  const std::string path = (fs::path(folder) / "targets.json").string();
  const nlohmann::json j = readJsonFile(path);
  JsonFields root(j, "");
  try {
    root.allowOnly({"correspondences", "closest_point_nodes", "targets"});
    for (const JsonFields& t : root.objectArray("targets")) t.allowOnly({"name", "file"});
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
  const bool closestPoint = root.has("closest_point_nodes");
  if (closestPoint && root.has("correspondences"))
    throw InputError(path + ": give either correspondences or closest_point_nodes, not both");
  std::vector<int> nodes;
  if (closestPoint) {
    nodes = nodeList(j, "closest_point_nodes", path, "closest_point_nodes");
  } else if (root.has("correspondences")) {
    nodes = nodeList(j, "correspondences", path, "correspondences");
  } else {
    for (int n = 0; n < model.nodeCount(); ++n) nodes.push_back(n);
  }
  const std::string field = closestPoint ? "closest_point_nodes" : "correspondences";
  if (nodes.empty()) {
    const bool inFile = j.contains(field) && j.at(field).is_string();
    throw InputError((inFile ? resolve(path, j.at(field).get<std::string>()) : path + ": " + field) +
                     ": no node (list the model nodes that the scans constrain)");
  }
  for (int n : nodes)
    if (n < 0 || n >= model.nodeCount())
      throw InputError(path + ": " + field + ": node " + std::to_string(n) + " out of range");
  std::vector<FaceTarget> targets;
  std::set<std::string> names;
  for (const JsonFields& t : root.objectArray("targets")) {
    const std::string file = resolve(path, t.string("file"));
    const std::string name = t.string("name", fs::path(file).stem().string());
    // Outputs are named after targets (OUT/meshes/NAME.vtu): a plain, visible file name.
    if (name.empty() || name.front() == '.' || name.find_first_of("/\\") != std::string::npos ||
        name.find('\0') != std::string::npos)
      throw InputError(path + ": " + t.path() + ": target name \"" + name +
                       "\" must be a plain file name (not empty, no '/' or '\\', not starting with '.')");
    if (!names.insert(name).second)  // outputs are named after targets: one would overwrite the other
      throw InputError(path + ": " + t.path() + ": target name \"" + name + "\" is used twice");
    if (closestPoint) {
      if (fs::path(file).extension() != ".obj")
        throw InputError(file + ": closest-point scans must be OBJ surfaces (vertices and faces)");
      targets.push_back(makeSurfaceTarget(name, nodes, readObjSurface(file)));
      continue;
    }
    FaceTarget target;
    target.name = name;
    target.nodes = nodes;
    target.points = reader(file);
    if (target.points.rows() != static_cast<Eigen::Index>(nodes.size()))
      throw InputError(file + ": " + std::to_string(target.points.rows()) + " vertices but " +
                       std::to_string(nodes.size()) + " correspondences in " + path);
    targets.push_back(std::move(target));
  }
  if (targets.empty()) throw InputError(path + ": no targets");
  return targets;
}

void writeGeometryCsv(const std::string& path, const MuscleGeometry& geometry,
                      const std::vector<std::string>& muscleNames) {
  std::ofstream out(path);
  out << "passive";
  for (const auto& n : muscleNames) out << ',' << n;
  out << '\n' << std::setprecision(17);
  const MatX S = geometry.dense();
  for (int i = 0; i < S.rows(); ++i) {
    for (int c = 0; c < S.cols(); ++c) out << (c ? "," : "") << S(i, c);
    out << '\n';
  }
  if (!out) throw InputError(path + ": cannot write");
}

MuscleGeometry readGeometryCsv(const std::string& path, const FaceModel& model) {
  std::ifstream in = openInputFile(path, "geometry CSV");
  std::string line;
  std::getline(in, line);  // header
  MuscleGeometry S = model.geometry;
  const int columns = model.muscleCount() + 1;
  int row = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (row >= model.tetCount()) throw InputError(path + ": more rows than the model's " +
                                                  std::to_string(model.tetCount()) + " tets");
    std::stringstream ss(line);
    VecX w(columns);
    std::string cell;
    int c = 0;
    while (std::getline(ss, cell, ',')) {
      if (c >= columns) throw InputError(path + ":" + std::to_string(row + 2) + ": too many columns");
      try {
        w[c++] = std::stod(cell);
      } catch (const std::exception&) {
        throw InputError(path + ":" + std::to_string(row + 2) + ": \"" + cell + "\" is not a number");
      }
    }
    if (c != columns) throw InputError(path + ":" + std::to_string(row + 2) + ": expected " +
                                       std::to_string(columns) + " columns");
    try {
      S.setRow(row, w);
    } catch (const InputError& e) {
      throw InputError(path + ":" + std::to_string(row + 2) + ": " + e.what());
    }
    ++row;
  }
  if (row != model.tetCount())
    throw InputError(path + ": " + std::to_string(row) + " rows for " + std::to_string(model.tetCount()) + " tets");
  try {
    S.setValues(S.values());
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
  return S;
}

void writeExpressionsJson(const std::string& path, const std::vector<std::string>& muscleNames,
                          const std::vector<NamedExpression>& expressions) {
  nlohmann::json j;
  j["muscles"] = muscleNames;
  j["activation_order"] = "11,12,13,22,23,33";
  j["jaw_order"] = "open_angle,side_angle,tx,ty,tz";
  j["expressions"] = nlohmann::json::array();
  for (const auto& e : expressions) {
    nlohmann::json x;
    x["name"] = e.name;
    x["activations"] = nlohmann::json::array();
    for (const Vec6& a : e.expression.activations) x["activations"].push_back(std::vector<double>(a.data(), a.data() + 6));
    x["jaw"] = std::vector<double>(e.expression.jaw.data(), e.expression.jaw.data() + 5);
    x["mean_error"] = e.meanError;
    x["max_error"] = e.maxError;
    x["iterations"] = e.iterations;
    j["expressions"].push_back(x);
  }
  std::ofstream out(path);
  out << std::setprecision(17) << j.dump(1) << '\n';
  if (!out) throw InputError(path + ": cannot write");
}

std::vector<NamedExpression> readExpressionsJson(const std::string& path, int muscleCount) {
  const nlohmann::json j = readJsonFile(path);
  std::vector<NamedExpression> out;
  try {
    for (const auto& x : j.at("expressions")) {
      NamedExpression e;
      e.name = x.value("name", std::string("expression"));
      for (const auto& a : x.at("activations")) {
        const auto v = a.get<std::vector<double>>();
        if (v.size() != 6) throw InputError("an activation needs 6 entries");
        const Vec6 activation = Eigen::Map<const Vec6>(v.data());
        const std::string where = "expression \"" + e.name + "\": activations[" +
                                  std::to_string(e.expression.activations.size()) + "]";
        for (int k = 0; k < 6; ++k)  // a stretch factor; 1e300 made the solve fail mid-animation
          requireMagnitude(activation[k], kMaxActivationEntry, where + "[" + std::to_string(k) + "]");
        if (symmetricFromActivation(activation).llt().info() != Eigen::Success)
          throw InputError(where + ": Sym(a) must be positive definite (a stretch; rest is 1 0 0 1 0 1)");
        e.expression.activations.push_back(activation);
      }
      if (static_cast<int>(e.expression.activations.size()) != muscleCount)
        throw InputError("expression \"" + e.name + "\" has " + std::to_string(e.expression.activations.size()) +
                         " activations for " + std::to_string(muscleCount) + " muscles");
      if (x.contains("jaw")) {
        const auto v = x.at("jaw").get<std::vector<double>>();
        if (v.size() != 5) throw InputError("jaw needs 5 entries");
        e.expression.jaw = Eigen::Map<const JawPose>(v.data());
      }
      out.push_back(e);
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path + ": expressions: " + e.what());
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
  return out;
}

void writeFaceVtu(const std::string& path, const FaceModel& model, const MuscleGeometry& geometry, const VecX& x,
                  const FaceTarget* target) {
  VtuFields point, cell;
  point["displacement"] = x - model.mesh.restPositions();
  if (target) point["error"] = nodeErrors(*target, x, model.nodeCount());
  const MatX S = geometry.dense();
  VecX passive(model.tetCount()), dominant(model.tetCount());
  for (int i = 0; i < model.tetCount(); ++i) {
    passive[i] = S(i, 0);
    Eigen::Index best = 0;
    S.row(i).maxCoeff(&best);
    dominant[i] = static_cast<double>(best) - 1.0;
  }
  cell["passive_weight"] = passive;
  cell["dominant_muscle"] = dominant;
  writeVtu(path, x, model.mesh.tets, point, cell);
}

void writeSyntheticFace(const std::string& folder, const SyntheticFace& face) {
  const FaceModel& m = face.model;
  fs::create_directories(fs::path(folder) / "muscles");
  fs::create_directories(fs::path(folder) / "targets");
  fs::create_directories(fs::path(folder) / "truth");
  writeTetgen((fs::path(folder) / "face").string(), m.mesh);
  writeIndexFile((fs::path(folder) / "skull_nodes.txt").string(), m.skullNodes);
  writeIndexFile((fs::path(folder) / "jaw_nodes.txt").string(), m.jawNodes);
  nlohmann::json j;
  j["tet_mesh"] = "face.node";
  j["material"] = {{"youngs_modulus", 8e3}, {"poisson_ratio", 0.45}, {"density", 1000}};
  j["gravity"] = vec(m.gravity);
  j["skull_nodes"] = "skull_nodes.txt";
  j["jaw"] = {{"nodes", "jaw_nodes.txt"}, {"pivot", vec(m.jaw.pivot)}, {"open_axis", vec(m.jaw.openAxis)},
              {"side_axis", vec(m.jaw.sideAxis)}};
  j["muscles"] = nlohmann::json::array();
  for (int k = 0; k < m.muscleCount(); ++k) {
    const std::string file = "muscles/" + m.muscleNames[k] + ".obj";
    writeObj((fs::path(folder) / file).string(), face.muscleSurfaces[k].vertices, face.muscleSurfaces[k].triangles);
    j["muscles"].push_back({{"name", m.muscleNames[k]}, {"surface", file}});
  }
  j["muscle_radius"] = face.muscleRadius;
  std::ofstream((fs::path(folder) / "model.json").string()) << std::setprecision(17) << j.dump(1) << '\n';

  // Targets: OBJ scans of the skin (outer nodes, with the skin triangles among them).
  std::vector<int> local(m.nodeCount(), -1);
  for (std::size_t k = 0; k < face.outerNodes.size(); ++k) local[face.outerNodes[k]] = static_cast<int>(k);
  std::vector<Eigen::RowVector3i> skin;
  for (int t = 0; t < m.surfaceTriangles.rows(); ++t) {
    const Eigen::RowVector3i tri = m.surfaceTriangles.row(t);
    if (local[tri[0]] >= 0 && local[tri[1]] >= 0 && local[tri[2]] >= 0)
      skin.emplace_back(local[tri[0]], local[tri[1]], local[tri[2]]);
  }
  TriangleMatrix triangles(skin.size(), 3);
  for (std::size_t t = 0; t < skin.size(); ++t) triangles.row(t) = skin[t];
  writeIndexFile((fs::path(folder) / "targets" / "correspondences.txt").string(), face.outerNodes);
  nlohmann::json tj;
  tj["correspondences"] = "correspondences.txt";
  tj["targets"] = nlohmann::json::array();
  std::vector<NamedExpression> truth;
  for (std::size_t k = 0; k < face.targets.size(); ++k) {
    const FaceTarget& t = face.targets[k];
    writeObj((fs::path(folder) / "targets" / (t.name + ".obj")).string(), t.points, triangles);
    tj["targets"].push_back({{"name", t.name}, {"file", t.name + ".obj"}});
    truth.push_back({t.name, face.trueExpressions[k]});
  }
  std::ofstream((fs::path(folder) / "targets" / "targets.json").string()) << tj.dump(1) << '\n';
  writeGeometryCsv((fs::path(folder) / "truth" / "geometry.csv").string(), face.trueGeometry, m.muscleNames);
  writeExpressionsJson((fs::path(folder) / "truth" / "expressions.json").string(), m.muscleNames, truth);
}

}  // namespace softfit::face

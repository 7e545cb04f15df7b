#include "scene/scene_loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "forward/errors.h"
#include "scene/scene_builder.h"

namespace softfit {
namespace {

nlohmann::json boxScene() {
  return nlohmann::json::parse(R"({
    "box": {"min": [0, 0, 0], "max": [2, 0.5, 0.5], "cells": [4, 1, 1]},
    "material": {"model": "corotated", "youngs_modulus": 1e5, "poisson_ratio": 0.3, "density": 100},
    "dirichlet": [{"box": {"min": [-1, -1, -1], "max": [0, 1, 1]}}],
    "integrator": {"type": "backward_euler"},
    "time": {"dt": 0.01, "steps": 5}
  })");
}

// Expects InputError whose message contains every fragment.
void expectInputError(const nlohmann::json& doc, std::initializer_list<const char*> fragments) {
  try {
    const SceneDescription scene = parseScene(doc, "scene.json", ".");
    buildScene(scene);
    FAIL() << "no error for " << doc.dump();
  } catch (const InputError& e) {
    const std::string message = e.what();
    for (const char* f : fragments) EXPECT_NE(message.find(f), std::string::npos) << "'" << f << "' not in: " << message;
  }
}

TEST(SceneLoader, ParsesAndBuildsBoxScene) {
  const SceneDescription scene = parseScene(boxScene(), "scene.json", ".");
  EXPECT_EQ(scene.material.model, MaterialModel::Corotated);
  EXPECT_EQ(scene.steps, 5);
  const BuiltScene built = buildScene(scene);
  EXPECT_EQ(built.mesh.tetCount(), 4 * 6);
  EXPECT_EQ(built.model->dirichlet.constrainedNodeCount(), 4);
  EXPECT_NEAR(built.model->totalMass(), 100 * 0.5, 1e-12);
}

TEST(SceneLoader, RejectsBadParametersNamingFileAndField) {
  auto doc = boxScene();
  doc["material"]["poisson_ratio"] = 0.5;
  expectInputError(doc, {"scene.json", "poisson_ratio"});
  doc = boxScene();
  doc["material"]["poisson_ratio"] = 0.7;
  expectInputError(doc, {"scene.json", "poisson_ratio"});
  doc = boxScene();
  doc["material"]["youngs_modulus"] = 0.0;
  expectInputError(doc, {"scene.json", "youngs_modulus"});
  doc = boxScene();
  doc["material"]["youngs_modulus"] = -5.0;
  expectInputError(doc, {"scene.json", "youngs_modulus"});
  doc = boxScene();
  doc["material"]["density"] = 0.0;
  expectInputError(doc, {"scene.json", "material.density"});
  doc = boxScene();
  doc["time"]["dt"] = -0.1;
  expectInputError(doc, {"scene.json", "time.dt"});
}

TEST(SceneLoader, RejectsUnknownKeysAndNames) {
  auto doc = boxScene();
  doc["material"]["youngs"] = 3.0;
  expectInputError(doc, {"scene.json", "material.youngs", "unknown key"});
  doc = boxScene();
  doc["gravityy"] = {0, 0, 0};
  expectInputError(doc, {"scene.json", "gravityy"});
  doc = boxScene();
  doc["material"]["model"] = "rubber";
  expectInputError(doc, {"scene.json", "material.model", "rubber"});
  doc = boxScene();
  doc["integrator"]["type"] = "rk4";
  expectInputError(doc, {"scene.json", "integrator.type", "rk4"});
  doc = boxScene();
  doc["material"]["youngs_modulus"] = "stiff";
  expectInputError(doc, {"scene.json", "material.youngs_modulus", "number"});
}

TEST(SceneLoader, RejectsBadGeometryAndSelections) {
  auto doc = boxScene();
  doc.erase("box");
  expectInputError(doc, {"scene.json", "\"mesh\" or \"box\""});
  doc = boxScene();
  doc["dirichlet"][0]["box"] = {{"min", {5, 5, 5}}, {"max", {6, 6, 6}}};
  expectInputError(doc, {"scene.json", "dirichlet[0]", "selects no mesh node"});
  doc = boxScene();
  doc["dirichlet"][0] = {{"nodes", {0, 999}}};
  expectInputError(doc, {"scene.json", "dirichlet[0].nodes", "999"});
  doc = boxScene();
  doc["mesh"] = {{"file", "does_not_exist.mesh"}};
  doc.erase("box");
  expectInputError(doc, {"does_not_exist.mesh"});
}

TEST(SceneLoader, NewmarkThetaNeedsLinearOrWarpedMaterial) {
  auto doc = boxScene();
  doc["integrator"] = {{"type", "newmark_theta"}, {"theta", 0.6}};
  // Issue 25: refused when the scene is read, naming the file (not at the first step).
  expectInputError(doc, {"scene.json", "integrator.type", "material.model", "corotated"});
  doc["material"]["model"] = "warped_corotated";
  EXPECT_NO_THROW(parseScene(doc, "scene.json", "."));
  doc["integrator"]["theta"] = 0.4;
  expectInputError(doc, {"scene.json", "integrator.theta"});
}

TEST(SceneLoader, IntegratorPreconditionerIsAnEnum) {
  auto doc = boxScene();
  doc["material"]["model"] = "warped_corotated";
  doc["integrator"] = {{"type", "newmark_theta"}};
  EXPECT_EQ(parseScene(doc, "scene.json", ".").integrator.preconditioner, PcgPreconditioner::Auto);
  doc["integrator"]["preconditioner"] = "multigrid";
  EXPECT_EQ(parseScene(doc, "scene.json", ".").integrator.preconditioner, PcgPreconditioner::Multigrid);
  doc["integrator"]["preconditioner"] = "cholesky";
  EXPECT_EQ(parseScene(doc, "scene.json", ".").integrator.preconditioner, PcgPreconditioner::Cholesky);
  // A tet scene has no node lattice: no multigrid whatever is asked for.
  EXPECT_TRUE(buildScene(parseScene(doc, "scene.json", ".")).model->nodeLattice.empty());
  doc["integrator"]["preconditioner"] = "amg";
  expectInputError(doc, {"scene.json", "integrator.preconditioner", "amg", "multigrid"});
}

TEST(SceneLoader, InvertedTetInMeshFileIsReportedWithFileName) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "softfit_scene_loader_test";
  std::filesystem::create_directories(dir);
  const std::string meshPath = (dir / "inverted.mesh").string();
  std::ofstream(meshPath) << "MeshVersionFormatted 1\nDimension 3\nVertices\n4\n0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 1 0\n"
                             "Tetrahedra\n1\n1 3 2 4 0\nEnd\n";
  nlohmann::json doc = boxScene();
  doc.erase("box");
  doc.erase("dirichlet");
  doc["mesh"] = {{"file", meshPath}};
  expectInputError(doc, {"inverted.mesh"});
  std::ofstream(meshPath) << "MeshVersionFormatted 1\nDimension 3\nVertices\n4\n0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 nan 0\n"
                             "Tetrahedra\n1\n1 2 3 4 0\nEnd\n";
  expectInputError(doc, {"inverted.mesh"});
  std::filesystem::remove_all(dir);
}

TEST(SceneLoader, ReadsFileAndReportsSyntaxErrors) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "softfit_scene_loader_test2";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "broken.json").string();
  std::ofstream(path) << "{ \"box\": [1, 2,, }";
  try {
    loadScene(path);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("broken.json"), std::string::npos);
  }
  EXPECT_THROW(loadScene((dir / "missing.json").string()), InputError);
  std::filesystem::remove_all(dir);
}

TEST(SceneLoader, BundledScenesLoad) {
  for (const auto& entry : std::filesystem::directory_iterator(std::string(SOFTFIT_SOURCE_DIR) + "/data/scenes")) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    const SceneDescription scene = loadScene(entry.path().string());
    const BuiltScene built = buildScene(scene);
    EXPECT_GT(built.model->elastic().elements().size(), 0u);  // tets, or cut cells for "sdf" scenes
    EXPECT_EQ(built.isGrid(), scene.sdf.has_value());
  }
}

}  // namespace
}  // namespace softfit

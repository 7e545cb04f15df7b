// Issue 25: the softfit binary on the hostile-input corpus (tests/apps/hostile/). Each
// case asserts the documented exit code and that the message names the file or field.
// In the arguments, {H} is the corpus folder and {T} a fresh folder holding named pipes
// (`fifo`, `fifo.mesh`, `fifo.obj`, `fifo.raw`, `fifo.json`), links to /dev/zero
// (`zero.mesh`, `zero.raw`), folders (`folder`, `folder.mesh`, and
// `capture_json_folder/capture.json`), a regular file `existing_file`, and the corpus
// files a case lists in `copies` (for scenes that name a pipe next to them).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "support/run_command.h"

namespace {

namespace fs = std::filesystem;

struct HostileCase {
  const char* name;
  const char* arguments;
  int exitCode;
  std::vector<const char*> mentions;  // each must appear in the output
  std::vector<const char*> copies = {};  // corpus files copied into {T} first
};

void PrintTo(const HostileCase& c, std::ostream* os) { *os << c.name; }

const char* const kCorpus = SOFTFIT_SOURCE_DIR "/tests/apps/hostile";

std::string substitute(std::string text, const std::string& key, const std::string& value) {
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
    text.replace(at, key.size(), value);
  return text;
}

class HostileInput : public ::testing::TestWithParam<HostileCase> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("softfit_hostile_" + std::to_string(::getpid()) + "_" + GetParam().name);
    fs::remove_all(dir_);
    for (const char* folder : {"folder", "folder.mesh", "capture_json_folder/capture.json"})
      fs::create_directories(dir_ / folder);
    std::ofstream(dir_ / "existing_file") << "not a folder\n";
    for (const char* pipe : {"fifo", "fifo.mesh", "fifo.obj", "fifo.raw", "fifo.json"})
      ASSERT_EQ(::mkfifo((dir_ / pipe).c_str(), 0600), 0) << pipe;
    for (const char* link : {"zero.mesh", "zero.raw"}) fs::create_symlink("/dev/zero", dir_ / link);
    for (const char* file : GetParam().copies) fs::copy_file(fs::path(kCorpus) / file, dir_ / file);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_P(HostileInput, ExitsWithTheDocumentedCodeAndNamesTheCulprit) {
  const HostileCase& c = GetParam();
  std::string arguments = substitute(c.arguments, "{H}", kCorpus);
  arguments = substitute(arguments, "{T}", dir_.string());
  const softfit::testing::CommandResult r = softfit::testing::runSoftfit(arguments, 20);
  EXPECT_EQ(r.exitCode, c.exitCode) << arguments << "\n" << r.output;
  for (const char* m : c.mentions) EXPECT_NE(r.output.find(m), std::string::npos) << "no \"" << m << "\" in\n" << r.output;
}

const HostileCase kCommandLine[] = {
    {"no_subcommand", "", 1, {"subcommand"}},
    {"unknown_option", "simulate {H}/tiny_box.json --bogus -o {T}/out", 1, {"--bogus"}},
    {"steps_not_a_number", "simulate {H}/tiny_box.json --steps abc -o {T}/out", 2, {"--steps"}},
    {"seed_not_a_number", "synth {H}/tiny_box.json --seed abc -o {T}/out", 2, {"--seed"}},
    {"missing_required_option", "fit {H}/tiny_box.json -o {T}/out", 1, {"--observations"}},
    {"missing_scene_file", "simulate {H}/does_not_exist.json -o {T}/out", 2, {"does_not_exist.json"}},
    {"fit_missing_scene_file", "fit {H}/does_not_exist.json --observations {T}/folder -o {T}/out", 2,
     {"does_not_exist.json"}},
};
INSTANTIATE_TEST_SUITE_P(CommandLine, HostileInput, ::testing::ValuesIn(kCommandLine),
                         [](const auto& info) { return std::string(info.param.name); });

// Issue 25: numbers that overflow a double, and integers that wrapped modulo 2^32.
const HostileCase kJsonNumbers[] = {
    {"scene_1e400", "simulate {H}/json_number_overflow.json -o {T}/out", 2, {"json_number_overflow.json"}},
    {"sdf_volume_header_1e400", "simulate {H}/json_sdf_volume_overflow.json -o {T}/out", 2,
     {"json_sdf_volume_overflow.sdf.json"}},
    {"capture_1e400", "fit {H}/tiny_box.json --observations {H}/json_capture_overflow -o {T}/out", 2,
     {"json_capture_overflow/capture.json"}},
    {"cameras_1e400", "synth {H}/tiny_box.json --cameras {H}/json_cameras_overflow.json -o {T}/out", 2,
     {"json_cameras_overflow.json"}},
    {"steps_4294967299", "simulate {H}/json_steps_wrap.json -o {T}/out", 2, {"json_steps_wrap.json", "time.steps"}},
    {"cells_4294967297", "simulate {H}/json_cells_wrap.json -o {T}/out", 2, {"json_cells_wrap.json", "box.cells[0]"}},
    {"dirichlet_nodes_4294967296", "simulate {H}/json_dirichlet_nodes_wrap.json -o {T}/out", 2,
     {"json_dirichlet_nodes_wrap.json", "dirichlet[0].nodes[0]"}},
    {"max_iterations_4294967297", "simulate {H}/json_max_iterations_wrap.json -o {T}/out", 2,
     {"json_max_iterations_wrap.json", "integrator.max_iterations"}},
    {"max_tet_volume_tiny", "simulate {H}/json_max_tet_volume_tiny.json -o {T}/out", 2,
     {"cube_tri.obj", "max_tet_volume 1e-12"}},
    {"max_tet_volume_negative", "simulate {H}/json_max_tet_volume_negative.json -o {T}/out", 2,
     {"json_max_tet_volume_negative.json", "mesh.max_tet_volume"}},
    {"every_4294967297", "simulate {H}/json_every_wrap.json -o {T}/out", 2, {"json_every_wrap.json", "output.every"}},
};
INSTANTIATE_TEST_SUITE_P(JsonNumbers, HostileInput, ::testing::ValuesIn(kJsonNumbers),
                         [](const auto& info) { return std::string(info.param.name); });

// Issue 25: every input path is checked to be a regular file (or a folder) before it is
// opened; `-o` must name a folder (checked before any work).
const HostileCase kPaths[] = {
    {"scene_fifo", "simulate {T}/fifo -o {T}/out", 2, {"fifo", "FIFO"}},
    {"scene_folder", "simulate {T}/folder -o {T}/out", 2, {"folder", "is a folder"}},
    {"scene_dev_zero", "simulate /dev/zero -o {T}/out", 2, {"/dev/zero", "device"}},
    {"mesh_fifo", "simulate {T}/path_mesh_fifo.json -o {T}/out", 2, {"fifo.mesh", "FIFO"}, {"path_mesh_fifo.json"}},
    {"mesh_folder", "simulate {T}/path_mesh_folder.json -o {T}/out", 2, {"folder.mesh", "folder"},
     {"path_mesh_folder.json"}},
    {"mesh_dev_zero", "simulate {T}/path_mesh_dev_zero.json -o {T}/out", 2, {"zero.mesh", "device"},
     {"path_mesh_dev_zero.json"}},
    {"obj_fifo", "simulate {T}/path_obj_fifo.json -o {T}/out", 2, {"fifo.obj", "FIFO"}, {"path_obj_fifo.json"}},
    {"volume_data_fifo", "simulate {T}/path_volume_fifo.json -o {T}/out", 2, {"fifo.raw", "FIFO"},
     {"path_volume_fifo.json", "path_volume_fifo.sdf.json"}},
    {"volume_data_dev_zero", "simulate {T}/path_volume_dev_zero.json -o {T}/out", 2, {"zero.raw", "device"},
     {"path_volume_dev_zero.json", "path_volume_dev_zero.sdf.json"}},
    {"volume_data_folder", "simulate {H}/path_volume_data_folder.json -o {T}/out", 2,
     {"path_volume_data_folder.sdf.json", "folder"}},
    {"capture_json_folder", "fit {H}/tiny_box.json --observations {T}/capture_json_folder -o {T}/out", 2,
     {"capture_json_folder/capture.json", "folder"}},
    {"displacements_json_missing", "fit {H}/tiny_box.json --observations {T}/folder --loss displacements -o {T}/out", 2,
     {"folder/displacements.json", "does not exist"}},
    {"observations_missing", "fit {H}/tiny_box.json --observations {T}/nowhere -o {T}/out", 2,
     {"--observations", "nowhere"}},
    {"cameras_fifo", "synth {H}/tiny_box.json --cameras {T}/fifo.json -o {T}/out", 2, {"fifo.json", "FIFO"}},
    {"simulate_output_is_a_file", "simulate {H}/tiny_box.json -o {T}/existing_file", 2, {"-o", "existing_file"}},
    {"synth_output_is_a_file", "synth {H}/tiny_box.json -o {T}/existing_file", 2, {"-o", "existing_file"}},
    {"fit_output_is_a_file", "fit {H}/tiny_box.json --observations {T}/folder -o {T}/existing_file", 2,
     {"-o", "existing_file"}},
    {"face_generate_output_is_a_file", "face generate -o {T}/existing_file", 2, {"-o", "existing_file"}},
    {"face_solve_output_is_a_file", "face solve {T}/model.json --targets {T}/folder -o {T}/existing_file", 2,
     {"-o", "existing_file"}},
    {"simulate_output_empty", "simulate {H}/tiny_box.json -o ''", 2, {"-o", "empty"}},
    {"synth_output_empty", "synth {H}/tiny_box.json -o ''", 2, {"-o", "empty"}},
};
INSTANTIATE_TEST_SUITE_P(Paths, HostileInput, ::testing::ValuesIn(kPaths),
                         [](const auto& info) { return std::string(info.param.name); });

// Issue 25: numeric options are parsed strictly and range-checked, naming the option
// (a malformed or out-of-range value is bad input, exit 2).
const HostileCase kOptionValues[] = {
    {"simulate_steps_negative", "simulate {H}/tiny_box.json --steps -5 -o {T}/out", 2, {"--steps", ">= 0"}},
    {"synth_steps_negative", "synth {H}/tiny_box.json --steps -5 -o {T}/out", 2, {"--steps"}},
    {"synth_stride_zero", "synth {H}/tiny_box.json --stride 0 -o {T}/out", 2, {"--stride"}},
    {"synth_noise_nan", "synth {H}/tiny_box.json --noise nan -o {T}/out", 2, {"--noise"}},
    {"fit_max_iterations_zero", "fit {H}/tiny_box.json --observations {T}/folder --max-iterations 0 -o {T}/out", 2,
     {"--max-iterations", ">= 1"}},
    {"fit_precondition_unknown", "fit {H}/tiny_box.json --observations {T}/folder --precondition newton -o {T}/out", 2,
     {"--precondition", "newton"}},
    {"fit_multi_start_zero", "fit {H}/tiny_box.json --observations {T}/folder --multi-start 0 -o {T}/out", 2,
     {"--multi-start"}},
    {"fit_bootstrap_refit_starts_overflow",
     "fit {H}/tiny_box.json --observations {H}/fit_capture --params E --noise-sigma 0.005 --bootstrap-steps 1"
     " --bootstrap-refits 1000 --multi-start 1000 -o {T}/out",
     2, {"--bootstrap-refits", "too many"}},
    {"fit_bootstrap_replicates_huge",
     "fit {H}/tiny_box.json --observations {H}/fit_capture --params E --noise-sigma 0.005 --bootstrap-steps 1"
     " --bootstrap-replicates 1000000000 -o {T}/out",
     2, {"--bootstrap-replicates", "[1, 1000]"}},
    {"face_generate_targets_huge", "face generate --targets 100000000 -o {T}/out", 2, {"--targets", "[1, 1000]"}},
    {"face_generate_shift_nan", "face generate --shift nan -o {T}/out", 2, {"--shift"}},
    {"fit_start_trailing_junk", "fit {H}/tiny_box.json --observations {T}/folder --params E --start E=3200xyz -o {T}/out",
     2, {"--start", "E=3200xyz"}},
    {"fit_start_repeated", "fit {H}/tiny_box.json --observations {T}/folder --params E --start E=1,E=2 -o {T}/out", 2,
     {"--start", "E", "twice"}},
    {"fit_start_out_of_range", "fit {H}/tiny_box.json --observations {H}/fit_capture --params E,nu --start nu=0.7 -o {T}/out",
     2, {"--start nu", "0.7"}},
    {"fit_params_region_overflow",
     "fit {H}/tiny_box.json --observations {T}/folder --params E@99999999999 -o {T}/out", 2,
     {"--params", "E@99999999999"}},
    {"gradcheck_params_region_overflow", "gradcheck {H}/tiny_box.json --params E@99999999999", 2,
     {"--params", "E@99999999999"}},
    {"gradcheck_params_repeated", "gradcheck {H}/tiny_box.json --params E,nu,E", 2, {"--params", "\"E\"", "twice"}},
    {"gradcheck_params_overlap", "gradcheck {H}/tiny_box.json --params E,nu,E@1", 2, {"--params", "E@1", "overlap"}},
    {"gradcheck_period_zero", "gradcheck {H}/tiny_box.json --period 0", 2, {"--period"}},
    {"gradcheck_tolerance_negative", "gradcheck {H}/tiny_box.json --tolerance -1", 2, {"--tolerance"}},
    {"gradcheck_tolerance_nan", "gradcheck {H}/tiny_box.json --tolerance nan", 2, {"--tolerance"}},
    {"gradcheck_constant_loss", "gradcheck {H}/gradcheck_constant_loss.json --params alpha1", 0,
     {"the loss is constant"}},
    {"solvers_max_iterations_zero", "solvers {H}/tiny_box.json --max-iterations 0", 2,
     {"--max-iterations", "integer >= 1"}},
    {"face_fit_rounds_zero", "face fit {T}/model.json --targets {T}/folder --rounds 0 -o {T}/out", 2, {"--rounds"}},
    {"face_fit_rounds_negative", "face fit {T}/model.json --targets {T}/folder --rounds -1 -o {T}/out", 2,
     {"--rounds"}},
    {"face_fit_w_a_negative", "face fit {T}/model.json --targets {T}/folder --w-a -1 -o {T}/out", 2, {"--w-a"}},
    {"face_generate_cells_zero", "face generate --cells-around 0 -o {T}/out", 2, {"--cells-around"}},
};
INSTANTIATE_TEST_SUITE_P(OptionValues, HostileInput, ::testing::ValuesIn(kOptionValues),
                         [](const auto& info) { return std::string(info.param.name); });

// Issue 25: a fit refuses data that cannot constrain it (it reported "converged" at the start).
const HostileCase kUnusableData[] = {
    {"fit_every_weight_zero", "fit {H}/tiny_box.json --observations {H}/fit_capture_zero_weights --params E -o {T}/out",
     2, {"fit_capture_zero_weights", "nothing to fit"}},
    {"fit_every_point_outside_the_grid",
     "fit {H}/fit_grid_sphere.json --observations {H}/fit_capture_far --params E -o {T}/out", 2,
     {"fit_capture_far", "3 dropped", "nothing to fit", "points used / dropped per frame: 0: 0/3"}},
    {"fit_every_frame_empty", "fit {H}/tiny_box.json --observations {H}/fit_capture_empty_frames --params E -o {T}/out",
     2, {"fit_capture_empty_frames", "nothing to fit"}},
};
INSTANTIATE_TEST_SUITE_P(UnusableData, HostileInput, ::testing::ValuesIn(kUnusableData),
                         [](const auto& info) { return std::string(info.param.name); });

// Issue 25: magnitudes past any physical scene are bad input naming the field (they were
// reported as a failed solve, exit 3). Legitimate values next to them still run.
const HostileCase kMagnitudes[] = {
    {"scene_youngs_1e308", "simulate {H}/value_youngs_1e308.json -o {T}/out", 2,
     {"value_youngs_1e308.json", "youngs_modulus", "must lie in [1e-06, 1e+15]"}},
    {"scene_velocity_1e308", "simulate {H}/value_velocity_1e308.json -o {T}/out", 2,
     {"value_velocity_1e308.json", "initial.velocity", "must lie in [-1e+06, 1e+06]"}},
    {"scene_dirichlet_velocity_1e308", "simulate {H}/value_dirichlet_velocity_1e308.json -o {T}/out", 2,
     {"value_dirichlet_velocity_1e308.json", "motion.velocity", "at most 1e+06"}},
    {"scene_dirichlet_angular_velocity_1e308", "simulate {H}/value_dirichlet_angular_1e308.json -o {T}/out", 2,
     {"value_dirichlet_angular_1e308.json", "motion.angular_velocity", "at most 1e+06"}},
    {"fit_start_youngs_1e308", "fit {H}/tiny_box.json --observations {H}/fit_capture --params E --start E=1e308 -o {T}/out",
     2, {"--start E = 1e+308: must lie in [1e-06, 1e+15]"}},
    {"fit_start_velocity_1e308",
     "fit {H}/tiny_box.json --observations {H}/fit_capture --params velocity_y --start velocity_y=1e308 -o {T}/out", 2,
     {"--start velocity_y = 1e+308: must lie in [-1e+06, 1e+06]"}},
    {"fit_capture_point_1e200",
     "fit {H}/tiny_box.json --observations {H}/capture_point_1e200 --params E -o {T}/out", 2,
     {"huge.xyz", "point 1 coordinate z", "1e+200"}},
    {"mesh_vertex_1e300", "simulate {H}/value_vertex_1e300.json -o {T}/out", 2,
     {"value_vertex_1e300.mesh", "vertex 3", "coordinate too large"}},
    {"face_generate_cells_around_100000", "face generate --cells-around 100000 -o {T}/out", 2,
     {"--cells-around", "[1, 20000]"}},
    {"face_generate_cells_product", "face generate --cells-around 1000 --cells-up 1000 -o {T}/out", 2,
     {"--cells-around x --cells-up x --cells-through", "1000 x 1000 x 2", "at most 20000"}},
    {"fit_start_youngs_legitimate",
     "fit {H}/tiny_box.json --observations {H}/fit_capture --params E --start E=1e12 --max-iterations 1 -o {T}/out", 0,
     {}},
};
INSTANTIATE_TEST_SUITE_P(Magnitudes, HostileInput, ::testing::ValuesIn(kMagnitudes),
                         [](const auto& info) { return std::string(info.param.name); });

// Issue 25: counts and sizes are checked against the file size or a memory estimate
// before anything is allocated (no bad_alloc, length_error or overflow).
const HostileCase kCounts[] = {
    {"medit_tetrahedra_2e9", "simulate {H}/count_medit_tets.json -o {T}/out", 2,
     {"count_medit_tets.mesh", "Tetrahedra count 2000000000"}},
    {"tetgen_points_2e9", "simulate {H}/count_tetgen.json -o {T}/out", 2, {"count_tetgen.node", "point count"}},
    {"ply_vertices_2e9", "fit {H}/tiny_box.json --observations {H}/count_ply_vertices -o {T}/out", 2,
     {"huge.ply", "element vertex 2000000000"}},
    {"capture_frame_count_2e9", "fit {H}/tiny_box.json --observations {H}/count_capture_frames -o {T}/out", 2,
     {"count_capture_frames/capture.json", "frame 1 is missing"}},
    {"box_cells_400_cubed", "simulate {H}/count_box_cells.json -o {T}/out", 2,
     {"count_box_cells.json", "box.cells", "memory"}},
    {"box_cells_int_max", "simulate {H}/count_box_cells_int_max.json -o {T}/out", 2,
     {"count_box_cells_int_max.json", "box.cells"}},
    {"synth_resolution_100000", "synth {H}/tiny_box.json --resolution 100000 -o {T}/out", 2, {"--resolution"}},
    {"camera_width_2e9", "synth {H}/tiny_box.json --cameras {H}/count_camera_width.json -o {T}/out", 2,
     {"count_camera_width.json", "cameras[0]", "pixels"}},
    {"displacement_dt_not_a_multiple",
     "fit {H}/tiny_box.json --observations {H}/displacement_dt_mismatch --params E -o {T}/out", 2,
     {"displacement_dt_mismatch/displacements.json", "integer multiple"}},
    {"displacement_frame_2e9", "fit {H}/tiny_box.json --observations {H}/count_displacement_frame -o {T}/out", 2,
     {"count_displacement_frame/displacements.json", "frame 2000000000"}},
    {"face_generate_cells_1e8", "face generate --cells-around 1000 --cells-up 1000 --cells-through 100 -o {T}/out", 2,
     {"--cells-around x --cells-up x --cells-through", "100000000 cells, at most 20000"}},
};
INSTANTIATE_TEST_SUITE_P(Counts, HostileInput, ::testing::ValuesIn(kCounts),
                         [](const auto& info) { return std::string(info.param.name); });

// 30,000 nested SDF unions segfaulted by recursion (the 1 MB scene is written here, not
// kept in the corpus).
TEST(HostileSceneInput, DeeplyNestedSdfUnionsAreRefused) {
  const fs::path scene = fs::temp_directory_path() / ("softfit_hostile_deep_" + std::to_string(::getpid()) + ".json");
  std::string doc = R"({"time": {"dt": 0.01, "steps": 1}, "sdf": {"type": "union", "cell_size": 0.05, "children": [)";
  for (int k = 0; k < 30000; ++k) doc += R"({"type": "union", "children": [)";
  doc += R"({"type": "sphere", "center": [0, 0.3, 0], "radius": 0.1})";
  for (int k = 0; k < 30000; ++k) doc += "]}";
  std::ofstream(scene) << doc << "]}}\n";
  const auto r = softfit::testing::runSoftfit("simulate " + scene.string() + " -o " + scene.string() + ".out", 20);
  fs::remove(scene);
  EXPECT_EQ(r.exitCode, 2) << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find(scene.filename().string()), std::string::npos) << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find("nested more than 64 levels"), std::string::npos) << r.output.substr(0, 2000);
}

// A tiny generated face model (7 muscles, one target) in a fresh folder.
class HostileFaceInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("softfit_hostile_face_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    face = (dir / "face").string();
    ASSERT_EQ(softfit::testing::runSoftfit(
                  "face generate --cells-around 2 --cells-up 2 --cells-through 1 --targets 1 -o " + face, 20)
                  .exitCode,
              0);
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
  std::string face;
};

// face solve: targets.json errors name the file; two targets of one name would overwrite
// each other's outputs.
TEST_F(HostileFaceInput, SolveRefusesUnknownKeysAndDuplicateTargetNames) {
  const std::string targets = face + "/targets/targets.json";
  const std::string solve = "face solve " + face + "/model.json --targets " + face + "/targets -o " +
                            (dir / "out").string();
  std::ofstream(targets) << R"({"correspondences": "correspondences.txt", "targets": [
      {"file": "expression_0.obj", "name": "a", "weight": 1}]})";
  const auto unknown = softfit::testing::runSoftfit(solve, 20);
  EXPECT_EQ(unknown.exitCode, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("targets.json"), std::string::npos) << unknown.output;
  EXPECT_NE(unknown.output.find("weight"), std::string::npos) << unknown.output;
  std::ofstream(targets) << R"({"correspondences": "correspondences.txt", "targets": [
      {"file": "expression_0.obj", "name": "a"}, {"file": "expression_0.obj", "name": "a"}]})";
  const auto twice = softfit::testing::runSoftfit(solve, 20);
  EXPECT_EQ(twice.exitCode, 2) << twice.output;
  EXPECT_NE(twice.output.find("targets.json"), std::string::npos) << twice.output;
  EXPECT_NE(twice.output.find("\"a\" is used twice"), std::string::npos) << twice.output;
}

// An empty node list (closest-point or correspondence mode, inline or in a file) is
// refused naming it (it segfaulted after the solve); a target name is a plain file name
// (a name "../../x" wrote its VTU outside -o, an empty one a hidden file).
TEST_F(HostileFaceInput, EmptyNodeListsAndTargetNamesThatAreNotFileNamesAreRefused) {
  const std::string targets = face + "/targets/targets.json";
  const fs::path out = dir / "out";
  const std::string solve = "face solve " + face + "/model.json --targets " + face + "/targets -o " + out.string();
  const std::string fit = "face fit " + face + "/model.json --targets " + face + "/targets --rounds 1 -o " + out.string();
  std::ofstream(face + "/targets/empty.txt") << "\n";
  const std::pair<std::string, std::string> cases[] = {
      {R"({"closest_point_nodes": [], "targets": [{"file": "expression_0.obj", "name": "a"}]})", "closest_point_nodes"},
      {R"({"closest_point_nodes": "empty.txt", "targets": [{"file": "expression_0.obj", "name": "a"}]})", "empty.txt"},
      {R"({"correspondences": [], "targets": [{"file": "expression_0.obj", "name": "a"}]})", "correspondences"},
      {R"({"correspondences": "correspondences.txt", "targets": [{"file": "expression_0.obj", "name": "../../x"}]})",
       "\"../../x\" must be a plain file name"},
      {R"({"correspondences": "correspondences.txt", "targets": [{"file": "expression_0.obj", "name": ""}]})",
       "\"\" must be a plain file name"},
      {R"({"correspondences": "correspondences.txt", "targets": [{"file": "expression_0.obj", "name": ".hidden"}]})",
       "must be a plain file name"},
  };
  for (const auto& [json, named] : cases)
    for (const std::string& command : {solve, fit}) {
      std::ofstream(targets) << json;
      const auto r = softfit::testing::runSoftfit(command, 60);
      EXPECT_EQ(r.exitCode, 2) << json << "\n" << r.output;
      EXPECT_NE(r.output.find(named), std::string::npos) << json << "\n" << r.output;
      EXPECT_NE(r.output.find("targets"), std::string::npos) << r.output;
      EXPECT_FALSE(fs::exists(dir / "x.vtu"));
      EXPECT_FALSE(fs::exists(out / "meshes"));
    }
}

// Correspondence-mode scans need only vertices (face_io.h); a vertex beyond 1e12 (or not
// finite) is refused naming the scan, in either mode, before any solve.
TEST_F(HostileFaceInput, VertexOnlyScansWorkAndHugeVerticesAreRefused) {
  const std::string folder = face + "/targets";
  std::ifstream in(folder + "/expression_0.obj");
  std::string line, vertices, huge;
  bool first = true;
  while (std::getline(in, line))
    if (line.rfind("v ", 0) == 0) {
      vertices += line + "\n";
      huge += first ? "v 1e300 0 0\n" : line + "\n";
      first = false;
    }
  std::ofstream(folder + "/points.obj") << vertices;
  std::ofstream(folder + "/huge.obj") << huge;
  const std::string solve = "face solve " + face + "/model.json --targets " + folder + " -o " + (dir / "out").string();
  std::ofstream(folder + "/targets.json")
      << R"({"correspondences": "correspondences.txt", "targets": [{"file": "points.obj", "name": "a"}]})";
  const auto ok = softfit::testing::runSoftfit(solve, 60);
  EXPECT_EQ(ok.exitCode, 0) << ok.output;
  std::ofstream(folder + "/targets.json")
      << R"({"correspondences": "correspondences.txt", "targets": [{"file": "huge.obj", "name": "a"}]})";
  const auto bad = softfit::testing::runSoftfit(solve, 60);
  EXPECT_EQ(bad.exitCode, 2) << bad.output;
  EXPECT_NE(bad.output.find("huge.obj"), std::string::npos) << bad.output;
  EXPECT_EQ(bad.output.find(".vtu"), std::string::npos) << bad.output;
}

// A face model with an empty skull_nodes.txt is a free body: refused naming the file (it
// ran 60-100 s and ended with a 67% error).
TEST_F(HostileFaceInput, AnEmptySkullNodeFileIsRefusedNamingIt) {
  std::ofstream(face + "/skull_nodes.txt") << "\n";
  const auto r = softfit::testing::runSoftfit("face solve " + face + "/model.json --targets " + face +
                                                  "/targets/targets.json -o " + (dir / "out").string(),
                                              20);
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("skull_nodes.txt"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("free body"), std::string::npos) << r.output;
}

// face animate: an activation must be a finite stretch (Sym(a) positive definite).
TEST_F(HostileFaceInput, AnimateRefusesANegativeActivationNamingTheFileAndEntry) {
  std::string activations = "[1, 0, 0, 1, 0, 1]";
  for (int m = 1; m < 7; ++m) activations += ", [1, 0, 0, 1, 0, 1]";
  const std::string good = "{\"expressions\": [{\"name\": \"a\", \"activations\": [" + activations + "]}]}";
  std::string bad = good;
  bad.replace(bad.find("[1, 0, 0, 1, 0, 1]"), 18, "[-5, 0, 0, 1, 0, 1]");
  std::ofstream(dir / "good.json") << good;
  std::ofstream(dir / "bad.json") << bad;
  const std::string animate = "face animate " + face + "/model.json --from rest --to a --frames 2 -o " +
                              (dir / "out").string() + " --expressions ";
  const auto ok = softfit::testing::runSoftfit(animate + (dir / "good.json").string(), 20);
  EXPECT_EQ(ok.exitCode, 0) << ok.output;
  EXPECT_TRUE(fs::exists(face + "/run_complete.txt"));  // face generate's marker
  EXPECT_TRUE(fs::exists(dir / "out" / "animation.pvd"));
  EXPECT_TRUE(fs::exists(dir / "out" / "run_complete.txt"));
  const auto r = softfit::testing::runSoftfit(animate + (dir / "bad.json").string(), 20);
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("bad.json"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("activations[0]"), std::string::npos) << r.output;
  const auto folder = softfit::testing::runSoftfit(animate + dir.string(), 20);  // a folder as --expressions
  EXPECT_EQ(folder.exitCode, 2) << folder.output;
  EXPECT_NE(folder.output.find("folder"), std::string::npos) << folder.output;
}

// face animate: an activation of 1e300 is bad input refused before anything is written
// (it left a partial animation.pvd); the earlier run's outputs no longer look complete.
TEST_F(HostileFaceInput, AnimateRefusesAHugeActivationBeforeWriting) {
  std::string activations = "[1, 0, 0, 1, 0, 1]";
  for (int m = 1; m < 7; ++m) activations += ", [1, 0, 0, 1, 0, 1]";
  std::string huge = "{\"expressions\": [{\"name\": \"a\", \"activations\": [" + activations + "]}]}";
  huge.replace(huge.find("[1, 0, 0, 1, 0, 1]"), 18, "[1e300, 0, 0, 1, 0, 1]");
  std::ofstream(dir / "huge.json") << huge;
  const fs::path out = dir / "huge_out";
  fs::create_directories(out);  // an earlier run's outputs
  for (const char* file : {"animation.pvd", "run_complete.txt"}) std::ofstream(out / file) << "earlier run\n";
  const auto r = softfit::testing::runSoftfit("face animate " + face + "/model.json --from rest --to a --frames 2 -o " +
                                                  out.string() + " --expressions " + (dir / "huge.json").string(),
                                              20);
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("huge.json"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("activations[0][0]"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out / "animation.pvd"));
  EXPECT_FALSE(fs::exists(out / "run_complete.txt"));
}

}  // namespace

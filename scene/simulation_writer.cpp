#include "scene/simulation_writer.h"

#include <cstdio>
#include <filesystem>
#include <utility>

#include "forward/errors.h"
#include "forward/io/obj_writer.h"
#include "forward/io/run_marker.h"
#include "forward/io/vtu_writer.h"

namespace softfit {

namespace {

namespace fs = std::filesystem;

VtuCells triangleCells(const SurfaceTriangles& triangles) {
  VtuCells cells;
  for (Eigen::Index t = 0; t < triangles.rows(); ++t) cells.add(VtkCellType::kTriangle, triangles.row(t).data(), 3);
  return cells;
}

// Removes what an earlier run wrote into `directory` (the marker first), so that old
// frames never sit next to a new, failed run's files. Best effort: a file that cannot be
// removed is overwritten by the new run or left without the marker.
void removeEarlierRun(const fs::path& directory) {
  beginRun(directory.string(), {"simulation.pvd", "surface.pvd", "final_surface.obj"});
  std::error_code ec;
  for (const auto& [folder, prefix] : {std::pair{"frames", "frame_"}, std::pair{"surface_frames", "surface_"}}) {
    if (!fs::is_directory(directory / folder, ec)) continue;
    for (const auto& entry : fs::directory_iterator(directory / folder, ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind(prefix, 0) == 0 && entry.path().extension() == ".vtu") fs::remove(entry.path(), ec);
    }
  }
}

}  // namespace

SimulationWriter::SimulationWriter(const std::string& outputDirectory, const BuiltScene& scene,
                                   const OutputSettings& settings)
    : directory_(outputDirectory), scene_(scene), settings_(settings) {
  const bool surfaceFrames = settings_.vtu && settings_.surfaceVtu.value_or(scene.isGrid());
  std::error_code ec;
  removeEarlierRun(directory_);
  fs::create_directories(fs::path(directory_) / "frames", ec);
  if (!ec && surfaceFrames) fs::create_directories(fs::path(directory_) / "surface_frames", ec);
  if (ec) throw InputError(directory_ + ": cannot create output folder (" + ec.message() + ")");
  if (settings_.vtu) pvd_ = std::make_unique<PvdWriter>((fs::path(directory_) / "simulation.pvd").string());
  if (surfaceFrames) surfacePvd_ = std::make_unique<PvdWriter>((fs::path(directory_) / "surface.pvd").string());
}

void SimulationWriter::writeFrame(int step, const State& state, bool last) {
  if (!settings_.vtu || (step % settings_.every != 0 && !last)) return;
  char name[64];
  std::snprintf(name, sizeof(name), "frame_%06d.vtu", step);
  const std::string path = (fs::path(directory_) / "frames" / name).string();
  const VecX displacement = state.x - scene_.model->restPositions();
  VtuFields pointData;
  pointData["displacement"] = displacement;
  pointData["velocity"] = state.v;
  if (scene_.isGrid()) {
    VtuFields cellData;
    VecX fraction(scene_.grid->cellCount());
    for (int c = 0; c < scene_.grid->cellCount(); ++c) fraction[c] = scene_.grid->cells()[c].volumeFraction;
    cellData["volume_fraction"] = fraction;
    writeVtu(path, state.x, scene_.cells, pointData, cellData);
  } else {
    writeVtu(path, state.x, scene_.cells, pointData);
  }
  pvd_->addTimestep(state.time, path);

  if (!surfacePvd_) return;
  std::snprintf(name, sizeof(name), "surface_%06d.vtu", step);
  const std::string surfacePath = (fs::path(directory_) / "surface_frames" / name).string();
  const EmbeddedSurface& surface = scene_.embeddedSurface;
  VtuFields surfaceData;
  surfaceData["displacement"] = surface.flatPositions(displacement);
  surfaceData["velocity"] = surface.flatPositions(state.v);
  writeVtu(surfacePath, surface.flatPositions(state.x), triangleCells(surface.triangles), surfaceData);
  surfacePvd_->addTimestep(state.time, surfacePath);
}

void SimulationWriter::finish(const State& finalState) {
  if (pvd_) pvd_->finalize();
  if (surfacePvd_) surfacePvd_->finalize();
  if (settings_.surfaceObj) {
    const EmbeddedSurface& surface = scene_.embeddedSurface;
    writeObj((fs::path(directory_) / "final_surface.obj").string(), surface.positions(finalState.x), surface.triangles);
  }
  markRunComplete(directory_, "softfit: run completed, " + std::to_string(framesWritten()) + " frames written");
}

}  // namespace softfit

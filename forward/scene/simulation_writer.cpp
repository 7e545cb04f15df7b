#include "forward/scene/simulation_writer.h"

#include <cstdio>
#include <filesystem>

#include "forward/errors.h"
#include "forward/io/obj_writer.h"
#include "forward/io/vtu_writer.h"

namespace softfit {

SimulationWriter::SimulationWriter(const std::string& outputDirectory, const BuiltScene& scene,
                                   const OutputSettings& settings)
    : directory_(outputDirectory), scene_(scene), settings_(settings) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(directory_) / "frames", ec);
  if (ec) throw InputError(directory_ + ": cannot create output folder (" + ec.message() + ")");
  if (settings_.vtu) pvd_ = std::make_unique<PvdWriter>((std::filesystem::path(directory_) / "simulation.pvd").string());
}

void SimulationWriter::writeFrame(int step, const State& state, bool last) {
  if (!settings_.vtu || (step % settings_.every != 0 && !last)) return;
  char name[64];
  std::snprintf(name, sizeof(name), "frame_%06d.vtu", step);
  const std::string path = (std::filesystem::path(directory_) / "frames" / name).string();
  VtuFields pointData;
  pointData["displacement"] = state.x - scene_.model->restPositions();
  pointData["velocity"] = state.v;
  writeVtu(path, state.x, scene_.mesh.tets, pointData);
  pvd_->addTimestep(state.time, path);
}

void SimulationWriter::finish(const State& finalState) {
  if (pvd_) pvd_->finalize();
  if (settings_.surfaceObj)
    writeObj((std::filesystem::path(directory_) / "final_surface.obj").string(), finalState.x, scene_.surface);
}

}  // namespace softfit

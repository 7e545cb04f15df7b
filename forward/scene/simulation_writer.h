#pragma once
// Writes a running simulation for ParaView: <out>/frames/frame_NNNNNN.vtu per written
// frame (displacement and velocity as point data), <out>/simulation.pvd listing them
// with their times, and <out>/final_surface.obj at the end.
#include <memory>
#include <string>

#include "forward/io/pvd_writer.h"
#include "forward/scene/scene_builder.h"

namespace softfit {

class SimulationWriter {
 public:
  // Creates the output folder; InputError naming it when that fails.
  SimulationWriter(const std::string& outputDirectory, const BuiltScene& scene, const OutputSettings& settings);
  // Writes frame `step` (0 = initial state) when it is a multiple of `every` or `last`.
  void writeFrame(int step, const State& state, bool last);
  void finish(const State& finalState);
  const std::string& directory() const { return directory_; }
  int framesWritten() const { return pvd_ ? pvd_->timestepCount() : 0; }

 private:
  std::string directory_;
  const BuiltScene& scene_;
  OutputSettings settings_;
  std::unique_ptr<PvdWriter> pvd_;
};

}  // namespace softfit

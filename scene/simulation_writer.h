#pragma once
// Writes a running simulation for ParaView: <out>/frames/frame_NNNNNN.vtu per written
// frame (the scene's cells, tets or grid hexes, with displacement and velocity as point
// data), <out>/simulation.pvd listing them with their times, optionally the deformed
// surface per frame (<out>/surface_frames/surface_NNNNNN.vtu listed in
// <out>/surface.pvd; for grids the embedded surface moved by the trilinear displacement
// field), and <out>/final_surface.obj at the end. A run that finishes writes
// <out>/run_complete.txt last; the constructor removes that marker and the outputs of an
// earlier run in the same folder (only files with these names), so a failed run never
// leaves a folder that looks complete.
#include <memory>
#include <string>

#include "forward/io/pvd_writer.h"
#include "scene/scene_builder.h"

namespace softfit {

class SimulationWriter {
 public:
  // Creates the output folder and clears an earlier run's outputs; InputError naming it
  // when that fails.
  SimulationWriter(const std::string& outputDirectory, const BuiltScene& scene, const OutputSettings& settings);
  // Writes frame `step` (0 = initial state) when it is a multiple of `every` or `last`.
  void writeFrame(int step, const State& state, bool last);
  // Writes the final surface and then the completion marker.
  void finish(const State& finalState);
  const std::string& directory() const { return directory_; }
  int framesWritten() const { return pvd_ ? pvd_->timestepCount() : 0; }
  bool writesSurfaceFrames() const { return surfacePvd_ != nullptr; }

 private:
  std::string directory_;
  const BuiltScene& scene_;
  OutputSettings settings_;
  std::unique_ptr<PvdWriter> pvd_;
  std::unique_ptr<PvdWriter> surfacePvd_;
};

}  // namespace softfit

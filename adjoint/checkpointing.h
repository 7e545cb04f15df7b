#pragma once
// How the reverse pass gets the forward states back (docs/theory.rst, section 3: store states,
// never matrices; matrices are recomputed in the backward pass).
#include <cstddef>
#include <functional>
#include <string>

namespace softfit {

enum class CheckpointStrategy {
  StoreAll,  // every state in memory (default for short runs)
  Periodic,  // every `period`-th state; segments recomputed in the backward pass
  Binomial,  // recursive (revolve-style) checkpointing within `maxStates` stored states
};

struct CheckpointOptions {
  CheckpointStrategy strategy = CheckpointStrategy::StoreAll;
  int period = 10;     // Periodic
  int maxStates = 20;  // Binomial: states held at once (checkpoints), at least 2
  // Called after every forward step of the pass, recomputations included (progress;
  // the Python module checks for Ctrl-C here): an exception it throws ends the pass.
  std::function<void()> onForwardStep;
};

CheckpointStrategy parseCheckpointStrategy(const std::string& name, const std::string& field);

struct CheckpointStatistics {
  int forwardSteps = 0;          // including recomputation
  int peakStoredStates = 0;      // states held at once by the checkpointing
  std::size_t peakStateBytes = 0;
};

}  // namespace softfit

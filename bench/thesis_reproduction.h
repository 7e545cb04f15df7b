#pragma once
// bench/thesis_reproduction: the thesis' experiments (../shared/papers/002, chapter 5,
// Table 4.1, Tables B.5 / B.6) rebuilt from its text and run with softfit, one table row
// per experiment. Each experiment lives in its own thesis_reproduction_*.cpp.
#include <string>
#include <vector>

namespace softfit::thesis {

struct Row {
  std::string experiment;
  std::string setup;          // thesis setup (truth in brackets)
  std::string thesisResult;
  std::string softfitResult;
  std::string error;          // against the truth (or the thesis' number for counts / times)
  std::string verdict;        // "ahead", "behind: why", "not run: why"
  double cpuSeconds = 0.0;    // process CPU time (all threads) of the row
  double wallSeconds = 0.0;
};

struct RunOptions {
  bool quick = false;    // the ctest smoke test: small sizes, few iterations (seconds)
  bool verbose = false;  // per-iteration lines of the fits on stderr
  std::string surfaceDir;  // the thesis' bunny and dragon (default ../shared/data/surface)
  // --precondition=hessian: the camera fits (torus, bunny, dragon) in the coordinates of
  // a finite-difference Hessian at the start (`softfit fit --precondition hessian`).
  bool hessian = false;
  // --point-cost=closest|sdf|mixture|pixel: the camera fits' point cost; empty = each
  // row's own: the thesis' SDF point cost, except the noise rows (Fig. 5.8), which use the
  // per-pixel cost (observations/pixel_point_cost.h: each point against the model's point
  // at its camera pixel). mixture: the noise-aware likelihood without pixels
  // (observations/rendered_mixture_cost.h). closest: softfit's
  // closest-point cost (every point counted; the SDF cost drops points more than a cell
  // outside the deformed grid, so a trajectory that leaves the observations gets cheaper).
  std::string pointCost;
  // The point cost of a row whose own is `rowDefault`.
  std::string pointCostOr(const std::string& rowDefault) const { return pointCost.empty() ? rowDefault : pointCost; }
};

// The fit variant of a camera row with point cost `cost` for its label: "" (the thesis'
// SDF cost), ", Hessian-preconditioned L-BFGS", ", closest-point cost", ", noise-aware
// mixture cost", or two of them.
std::string fitVariantLabel(const RunOptions& options, const std::string& cost);

// Process CPU time (all threads) in seconds.
double processCpuSeconds();

// Process CPU time (all threads) and wall clock, to time a row.
class RowTimer {
 public:
  RowTimer();
  void finish(Row& row) const;
  double wallElapsed() const;  // wall seconds since construction

 private:
  double cpu0_, wall0_;
};

std::vector<Row> gridCountRows(const RunOptions& options);      // Table 4.1
std::vector<Row> cuboidTimingRows(const RunOptions& options);   // Tables B.5 / B.6
std::vector<Row> jointFitRows(const RunOptions& options);       // Fig. 5.7
std::vector<Row> noiseRows(const RunOptions& options);          // Fig. 5.8
std::vector<Row> torusRows(const RunOptions& options);          // Fig. 5.9 / 5.10
std::vector<Row> bunnyRows(const RunOptions& options);          // Fig. 5.11
std::vector<Row> dragonRows(const RunOptions& options);         // Fig. 5.12
std::vector<Row> stepTimingRows(const RunOptions& options);     // Table 5.2
std::vector<Row> notReproducedRows();                           // what this program does not run

// Fig. 5.6 / 5.7a,b: the Fig. 5.4 bar (320 cells; --quick 40) as DIR/bar.json and its
// displacement observations, DIR/observations/{displacements,truth}.json, for
// `softfit fit` and `softfit sweep` (bench/thesis_landscapes.sh).
void writeBarCase(const std::string& dir, const RunOptions& options);
// Fig. 5.6's ground-plane panel: the Fig. 5.5 collision case (collisionScene, 320 cells;
// --quick 40) as DIR/collision.json and its displacement observations (truth: ground_theta,
// ground_phi), the same files as writeBarCase.
void writeCollisionCase(const std::string& dir, const RunOptions& options);

// Formatting helpers.
std::string format(const char* fmt, ...);
std::string percent(double value, double truth);  // "+0.03%"

}  // namespace softfit::thesis

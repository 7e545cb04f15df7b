// Table 4.1: grid free nodes and elements of the thesis cuboid (centre (0, 1, 0),
// half-extents (1.29, 0.4, 0.8), h = 1/r) for r = 5..20, with the thesis' absolute
// snapping (|phi| < 0.01 -> 0, LatticeOptions::snapDistance) and with softfit's default
// (0.01 h). The two differ at r = 7 and 14: the x faces at +-1.29 lie 0.0043 outside the
// nodes at x = +-9/7 = +-18/14, which the absolute snap moves onto the surface.
#include <optional>

#include "bench/thesis_reproduction.h"
#include "grid/cut_cell_grid.h"
#include "grid/sdf_primitives.h"

namespace softfit::thesis {

namespace {

const int kThesisNodes[16] = {675, 1309, 1729, 3105, 3825, 4131, 6479, 7623, 10465, 12025, 13325, 17415, 19575, 25823, 28611, 29733};
const int kThesisCells[16] = {448, 960, 1296, 2464, 3072, 3328, 5400, 6400, 8976, 10368, 11520, 15288, 17248, 23040, 25600, 26624};

CutCellGrid cuboid(int r, std::optional<double> snapDistance) {
  LatticeOptions options;
  options.cellSize = 1.0 / r;
  options.snapDistance = snapDistance;
  return CutCellGrid(sampleSdfLattice(BoxSdf(Vec3(0, 1, 0), Vec3(1.29, 0.4, 0.8)), options));
}

}  // namespace

std::vector<Row> gridCountRows(const RunOptions&) {
  std::vector<Row> rows;
  for (const bool thesisSnap : {true, false}) {
    const RowTimer timer;
    int exact = 0;
    std::string misses;
    for (int r = 5; r <= 20; ++r) {
      const CutCellGrid grid = cuboid(r, thesisSnap ? std::optional<double>(0.01) : std::nullopt);
      if (grid.nodeCount() == kThesisNodes[r - 5] && grid.cellCount() == kThesisCells[r - 5]) {
        ++exact;
      } else {
        misses += format("%sr = %d: %d / %d vs %d / %d", misses.empty() ? "" : "; ", r, grid.nodeCount(),
                         grid.cellCount(), kThesisNodes[r - 5], kThesisCells[r - 5]);
      }
    }
    Row row;
    row.experiment = thesisSnap ? "Table 4.1 counts, snap_distance 0.01 (thesis convention)"
                                : "Table 4.1 counts, default snap 0.01 h";
    row.setup = "cuboid (0,1,0) +- (1.29,0.4,0.8), h = 1/r, r = 5..20: grid free nodes / cells";
    row.thesisResult = "675 / 448 ... 29733 / 26624";
    row.softfitResult = format("%d of 16 exact", exact);
    row.error = misses.empty() ? "none" : misses;
    row.verdict = exact == 16 ? "matches" : "differs where |phi| of a node lies in [0.01 h, 0.01)";
    timer.finish(row);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace softfit::thesis

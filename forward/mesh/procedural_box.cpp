#include "forward/mesh/procedural_box.h"

#include <climits>
#include <sstream>

#include "forward/errors.h"
#include "forward/mesh/memory_budget.h"

namespace softfit {

namespace {

// The 6 permutations of the axes; tet p walks from corner (0,0,0) to (1,1,1) along
// axes kAxes[p][0], kAxes[p][1], kAxes[p][2]. Odd permutations are flipped.
constexpr int kAxes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
constexpr bool kOdd[6] = {false, true, true, false, false, true};

}  // namespace

void checkBoxMeshSize(long long nx, long long ny, long long nz, const std::string& field) {
  const long double tets = 6.0L * nx * ny * nz, nodes = (nx + 1.0L) * (ny + 1.0L) * (nz + 1.0L);
  if (tets > INT_MAX || nodes > INT_MAX) {
    std::ostringstream s;
    s << field << ": " << nx << " x " << ny << " x " << nz << " cells give " << static_cast<double>(tets)
      << " tets, more than " << INT_MAX << " (too many to index)";
    throw InputError(s.str());
  }
  requireMemory(tets * kSimulationBytesPerTet, field + ": " + std::to_string(nx) + " x " + std::to_string(ny) + " x " +
                                         std::to_string(nz) + " cells (" + std::to_string(static_cast<long long>(tets)) +
                                         " tets)");
}

TetMesh makeBoxMesh(const Vec3& minCorner, const Vec3& maxCorner, int nx, int ny, int nz) {
  if (nx < 1 || ny < 1 || nz < 1) {
    std::ostringstream s;
    s << "makeBoxMesh: cell counts must be >= 1, got (" << nx << ", " << ny << ", " << nz << ")";
    throw InputError(s.str());
  }
  checkBoxMeshSize(nx, ny, nz, "makeBoxMesh: cell counts");
  if (!minCorner.allFinite() || !maxCorner.allFinite() || !(minCorner.array() < maxCorner.array()).all()) {
    std::ostringstream s;
    s << "makeBoxMesh: minCorner (" << minCorner.transpose() << ") must be finite and strictly below maxCorner ("
      << maxCorner.transpose() << ") in every coordinate";
    throw InputError(s.str());
  }
  const int counts[3] = {nx, ny, nz};
  const auto node = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };

  TetMesh mesh;
  mesh.source = "<procedural box>";
  mesh.vertices.resize((nx + 1) * (ny + 1) * (nz + 1), 3);
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        const int idx[3] = {i, j, k};
        for (int c = 0; c < 3; ++c) {
          // Exact end points: the last layer lands on maxCorner, not min + n * h.
          const double s = static_cast<double>(idx[c]) / counts[c];
          mesh.vertices(node(i, j, k), c) = idx[c] == counts[c] ? maxCorner[c] : minCorner[c] + s * (maxCorner[c] - minCorner[c]);
        }
      }

  mesh.tets.resize(6 * nx * ny * nz, 4);
  int t = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (int p = 0; p < 6; ++p) {
          int corner[3] = {i, j, k};
          int tet[4];
          tet[0] = node(corner[0], corner[1], corner[2]);
          for (int step = 0; step < 3; ++step) {
            ++corner[kAxes[p][step]];
            tet[step + 1] = node(corner[0], corner[1], corner[2]);
          }
          if (kOdd[p]) std::swap(tet[1], tet[2]);
          mesh.tets.row(t++) << tet[0], tet[1], tet[2], tet[3];
        }
  return mesh;
}

}  // namespace softfit

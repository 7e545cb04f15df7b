// boundaryFaces (declared in tet_mesh.h): faces used by exactly one tet, oriented outward.
#include <algorithm>
#include <array>

#include "forward/mesh/tet_mesh.h"

namespace softfit {

namespace {

// Outward faces of a positively oriented tet (0,1,2,3).
constexpr int kTetFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

struct FaceRecord {
  std::array<int, 3> key;  // sorted vertex indices
  int tet;
  int local;
};

}  // namespace

Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor> boundaryFaces(const TetMesh& mesh) {
  std::vector<FaceRecord> faces;
  faces.reserve(4 * static_cast<std::size_t>(mesh.tetCount()));
  for (int t = 0; t < mesh.tetCount(); ++t) {
    for (int f = 0; f < 4; ++f) {
      std::array<int, 3> key = {mesh.tets(t, kTetFaces[f][0]), mesh.tets(t, kTetFaces[f][1]),
                                mesh.tets(t, kTetFaces[f][2])};
      std::sort(key.begin(), key.end());
      faces.push_back({key, t, f});
    }
  }
  std::sort(faces.begin(), faces.end(), [](const FaceRecord& a, const FaceRecord& b) {
    if (a.key != b.key) return a.key < b.key;
    return a.tet != b.tet ? a.tet < b.tet : a.local < b.local;
  });
  // Keep faces whose key occurs once; report them in (tet, local face) order.
  std::vector<std::pair<int, int>> boundary;
  for (std::size_t i = 0; i < faces.size();) {
    std::size_t j = i + 1;
    while (j < faces.size() && faces[j].key == faces[i].key) ++j;
    if (j - i == 1) boundary.emplace_back(faces[i].tet, faces[i].local);
    i = j;
  }
  std::sort(boundary.begin(), boundary.end());
  Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor> result(static_cast<Eigen::Index>(boundary.size()), 3);
  for (std::size_t r = 0; r < boundary.size(); ++r)
    for (int c = 0; c < 3; ++c) result(r, c) = mesh.tets(boundary[r].first, kTetFaces[boundary[r].second][c]);
  return result;
}

}  // namespace softfit

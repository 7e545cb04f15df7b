#pragma once
// ParaView-ready VTK XML UnstructuredGrid (.vtu) output, ASCII with full precision.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "forward/types.h"

namespace softfit {

using TetIndexMatrix = Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor>;  // M x 4, 0-based
using HexIndexMatrix = Eigen::Matrix<int, Eigen::Dynamic, 8, Eigen::RowMajor>;  // M x 8, 0-based

// VTK cell type ids.
enum class VtkCellType : std::uint8_t {
  kTriangle = 5,     // 3 nodes (surfaces)
  kTetra = 10,       // 4 nodes
  kHexahedron = 12,  // 8 nodes: bottom face 0-1-2-3 counter-clockwise seen from the top
                     // face, then top face 4-5-6-7 with node 4 above node 0 (for an
                     // axis-aligned cell: (0,0,0) (1,0,0) (1,1,0) (0,1,0) then z = 1)
};

// Any mix of cells, in VTK's layout: connectivity of all cells concatenated, offsets[c]
// = end of cell c in connectivity, types[c] = its VTK type.
struct VtuCells {
  std::vector<int> connectivity;
  std::vector<int> offsets;
  std::vector<VtkCellType> types;

  int cellCount() const { return static_cast<int>(types.size()); }
  void add(VtkCellType type, const int* nodes, int nodeCount);
};

VtuCells tetCells(const TetIndexMatrix& tets);
VtuCells hexCells(const HexIndexMatrix& hexes);

// Field name -> values, per point (or per cell): n values = scalar, 3n = vector (x,y,z
// per point), 9n = 3x3 tensor (column-major per point, as flatten() in types.h).
// Written in name order.
using VtuFields = std::map<std::string, VecX>;

// Writes points (flat 3N positions or an N x 3 matrix), cells and fields. Output is
// deterministic (same input -> same bytes). Throws InputError naming `path` when the file
// cannot be written, a cell references a missing point, or a field has a size that is
// not 1, 3 or 9 times the point (cell) count or a non-finite value.
void writeVtu(const std::string& path, const VecX& positions, const VtuCells& cells, const VtuFields& pointData = {},
              const VtuFields& cellData = {});
void writeVtu(const std::string& path, const PointMatrix& vertices, const VtuCells& cells,
              const VtuFields& pointData = {}, const VtuFields& cellData = {});
void writeVtu(const std::string& path, const VecX& positions, const TetIndexMatrix& tets,
              const VtuFields& pointData = {}, const VtuFields& cellData = {});
void writeVtu(const std::string& path, const PointMatrix& vertices, const TetIndexMatrix& tets,
              const VtuFields& pointData = {}, const VtuFields& cellData = {});

}  // namespace softfit

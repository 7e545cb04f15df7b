#include "forward/io/vtu_writer.h"

#include <cmath>

#include "forward/errors.h"
#include "forward/io/text_output.h"

namespace softfit {

namespace {

int componentsOf(const std::string& path, const std::string& kind, const std::string& name, Eigen::Index size,
                 Eigen::Index count) {
  for (int components : {1, 3, 9})
    if (size == components * count) return components;
  throw InputError(path + ": " + kind + " field '" + name + "' has " + std::to_string(size) + " values for " +
                   std::to_string(count) + " " + kind + "s (expected 1, 3 or 9 per " + kind + ")");
}

void appendFields(std::string& out, const std::string& path, const std::string& kind, const VtuFields& fields,
                  Eigen::Index count) {
  const std::string tag = kind == "point" ? "PointData" : "CellData";
  if (fields.empty()) {
    out += "      <" + tag + "/>\n";
    return;
  }
  out += "      <" + tag + ">\n";
  for (const auto& [name, values] : fields) {
    if (name.empty()) throw InputError(path + ": " + kind + " field with an empty name");
    const int components = componentsOf(path, kind, name, values.size(), count);
    for (Eigen::Index i = 0; i < values.size(); ++i)
      if (!std::isfinite(values[i]))
        throw InputError(path + ": " + kind + " field '" + name + "' has a non-finite value at index " +
                         std::to_string(i));
    out += "        <DataArray type=\"Float64\" Name=\"" + xmlEscape(name) + "\" NumberOfComponents=\"" +
           std::to_string(components) + "\" format=\"ascii\">\n";
    for (Eigen::Index i = 0; i < count; ++i) {
      out += "          ";
      for (int c = 0; c < components; ++c) {
        if (c) out += ' ';
        appendDouble(out, values[components * i + c]);
      }
      out += '\n';
    }
    out += "        </DataArray>\n";
  }
  out += "      </" + tag + ">\n";
}

}  // namespace

void VtuCells::add(VtkCellType type, const int* nodes, int nodeCount) {
  connectivity.insert(connectivity.end(), nodes, nodes + nodeCount);
  offsets.push_back(static_cast<int>(connectivity.size()));
  types.push_back(type);
}

VtuCells tetCells(const TetIndexMatrix& tets) {
  VtuCells cells;
  for (Eigen::Index t = 0; t < tets.rows(); ++t) cells.add(VtkCellType::kTetra, tets.row(t).data(), 4);
  return cells;
}

VtuCells hexCells(const HexIndexMatrix& hexes) {
  VtuCells cells;
  for (Eigen::Index h = 0; h < hexes.rows(); ++h) cells.add(VtkCellType::kHexahedron, hexes.row(h).data(), 8);
  return cells;
}

void writeVtu(const std::string& path, const VecX& positions, const VtuCells& cells, const VtuFields& pointData,
              const VtuFields& cellData) {
  if (positions.size() % 3 != 0)
    throw InputError(path + ": position vector has " + std::to_string(positions.size()) +
                     " entries, not a multiple of 3");
  const Eigen::Index n = positions.size() / 3;
  const Eigen::Index m = cells.cellCount();
  if (static_cast<Eigen::Index>(cells.offsets.size()) != m || (m > 0 && cells.offsets.back() != static_cast<int>(cells.connectivity.size())))
    throw InputError(path + ": inconsistent cell offsets/types/connectivity");
  for (std::size_t k = 0; k < cells.connectivity.size(); ++k)
    if (cells.connectivity[k] < 0 || cells.connectivity[k] >= n)
      throw InputError(path + ": cell connectivity entry " + std::to_string(k) + " references point " +
                       std::to_string(cells.connectivity[k]) + " of " + std::to_string(n));
  if (!positions.allFinite()) throw InputError(path + ": point positions contain a non-finite value");

  std::string out;
  out.reserve(static_cast<std::size_t>(80 * (n + m)) + 1024);
  out += "<?xml version=\"1.0\"?>\n";
  out += "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n";
  out += "  <UnstructuredGrid>\n";
  out += "    <Piece NumberOfPoints=\"" + std::to_string(n) + "\" NumberOfCells=\"" + std::to_string(m) + "\">\n";
  appendFields(out, path, "point", pointData, n);
  appendFields(out, path, "cell", cellData, m);
  out += "      <Points>\n        <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n";
  for (Eigen::Index i = 0; i < n; ++i) {
    out += "          ";
    for (int c = 0; c < 3; ++c) {
      if (c) out += ' ';
      appendDouble(out, positions[3 * i + c]);
    }
    out += '\n';
  }
  out += "        </DataArray>\n      </Points>\n      <Cells>\n";
  out += "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n";
  for (Eigen::Index c = 0; c < m; ++c) {
    out += "          ";
    const int begin = c == 0 ? 0 : cells.offsets[c - 1];
    for (int k = begin; k < cells.offsets[c]; ++k) {
      if (k > begin) out += ' ';
      out += std::to_string(cells.connectivity[k]);
    }
    out += '\n';
  }
  out += "        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n";
  for (Eigen::Index c = 0; c < m; ++c) out += "          " + std::to_string(cells.offsets[c]) + "\n";
  out += "        </DataArray>\n        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n";
  for (Eigen::Index c = 0; c < m; ++c) out += "          " + std::to_string(static_cast<int>(cells.types[c])) + "\n";
  out += "        </DataArray>\n      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n";
  writeTextFile(path, out);
}

void writeVtu(const std::string& path, const PointMatrix& vertices, const VtuCells& cells, const VtuFields& pointData,
              const VtuFields& cellData) {
  VecX positions(3 * vertices.rows());
  for (Eigen::Index i = 0; i < vertices.rows(); ++i) positions.segment<3>(3 * i) = vertices.row(i).transpose();
  writeVtu(path, positions, cells, pointData, cellData);
}

void writeVtu(const std::string& path, const VecX& positions, const TetIndexMatrix& tets, const VtuFields& pointData,
              const VtuFields& cellData) {
  writeVtu(path, positions, tetCells(tets), pointData, cellData);
}

void writeVtu(const std::string& path, const PointMatrix& vertices, const TetIndexMatrix& tets,
              const VtuFields& pointData, const VtuFields& cellData) {
  writeVtu(path, vertices, tetCells(tets), pointData, cellData);
}

}  // namespace softfit

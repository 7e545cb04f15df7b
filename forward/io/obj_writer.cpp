#include "forward/io/obj_writer.h"

#include "forward/errors.h"
#include "forward/io/text_output.h"

namespace softfit {

void writeObj(const std::string& path, const VecX& positions,
              const Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>& triangles) {
  if (positions.size() % 3 != 0)
    throw InputError(path + ": position vector has " + std::to_string(positions.size()) +
                     " entries, not a multiple of 3");
  if (!positions.allFinite()) throw InputError(path + ": vertex positions contain a non-finite value");
  const Eigen::Index n = positions.size() / 3;
  std::string out = "# softfit triangle surface\n";
  for (Eigen::Index i = 0; i < n; ++i) {
    out += "v";
    for (int c = 0; c < 3; ++c) {
      out += ' ';
      appendDouble(out, positions[3 * i + c]);
    }
    out += '\n';
  }
  for (Eigen::Index t = 0; t < triangles.rows(); ++t) {
    out += "f";
    for (int c = 0; c < 3; ++c) {
      const int v = triangles(t, c);
      if (v < 0 || v >= n)
        throw InputError(path + ": triangle " + std::to_string(t) + " references vertex " + std::to_string(v) +
                         " of " + std::to_string(n));
      out += ' ' + std::to_string(v + 1);
    }
    out += '\n';
  }
  writeTextFile(path, out);
}

void writeObj(const std::string& path, const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>& vertices,
              const Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>& triangles) {
  VecX positions(3 * vertices.rows());
  for (Eigen::Index i = 0; i < vertices.rows(); ++i) positions.segment<3>(3 * i) = vertices.row(i).transpose();
  writeObj(path, positions, triangles);
}

}  // namespace softfit

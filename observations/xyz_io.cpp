#include "observations/xyz_io.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <vector>

#include "forward/errors.h"
#include "forward/io/text_output.h"
#include "forward/mesh/input_file.h"

namespace softfit {

PointCloud readXyz(const std::string& path) {
  std::ifstream in = openInputFile(path, "XYZ file");
  std::vector<double> values;
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    const std::size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    int column = 0;
    double xyz[3] = {0, 0, 0};
    std::size_t pos = 0;
    while (true) {
      while (pos < line.size() && std::isspace(static_cast<unsigned char>(line[pos]))) ++pos;
      if (pos >= line.size()) break;
      std::size_t end = pos;
      while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end]))) ++end;
      if (column < 3) {
        const char* first = line.data() + pos;
        const char* last = line.data() + end;
        const char* start = (*first == '+') ? first + 1 : first;
        double v = 0.0;
        const auto r = std::from_chars(start, last, v);
        if (r.ec != std::errc() || r.ptr != last)
          throw InputError(path + ": line " + std::to_string(lineNo) + ": \"" + std::string(first, last) +
                           "\" is not a number");
        if (!std::isfinite(v))
          throw InputError(path + ": line " + std::to_string(lineNo) + ": non-finite coordinate \"" +
                           std::string(first, last) + "\"");
        xyz[column] = v;
      }
      ++column;
      pos = end;
    }
    if (column == 0) continue;
    if (column < 3)
      throw InputError(path + ": line " + std::to_string(lineNo) + ": expected \"x y z\", found " +
                       std::to_string(column) + " number" + (column == 1 ? "" : "s"));
    values.insert(values.end(), xyz, xyz + 3);
  }
  PointCloud cloud;
  cloud.points = Eigen::Map<const PointMatrix>(values.data(), static_cast<Eigen::Index>(values.size() / 3), 3);
  return cloud;
}

void writeXyz(const std::string& path, const PointCloud& cloud) {
  checkFinitePoints(cloud, path + ": cannot write XYZ");
  std::string out = "# x y z (written by softfit)\n";
  for (int i = 0; i < cloud.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      if (c) out += ' ';
      appendDouble(out, cloud.points(i, c));
    }
    out += '\n';
  }
  writeTextFile(path, out);
}

}  // namespace softfit

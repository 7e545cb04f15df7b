#include "forward/mesh/stl_surface_reader.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <vector>

#include "forward/errors.h"
#include "forward/mesh/input_file.h"
#include "forward/mesh/text_tokenizer.h"

namespace softfit {

namespace {

// Merges bit-identical corners into shared vertices.
class VertexWelder {
 public:
  int add(const Vec3& x) {
    const auto [it, inserted] = index_.emplace(std::array<double, 3>{x[0], x[1], x[2]}, static_cast<int>(points_.size()));
    if (inserted) points_.push_back(x);
    return it->second;
  }
  TriangleSurface finish(const std::string& path, const std::vector<std::array<int, 3>>& triangles) const {
    TriangleSurface s;
    s.source = path;
    s.vertices.resize(static_cast<Eigen::Index>(points_.size()), 3);
    for (std::size_t i = 0; i < points_.size(); ++i) s.vertices.row(i) = points_[i].transpose();
    s.triangles.resize(static_cast<Eigen::Index>(triangles.size()), 3);
    for (std::size_t t = 0; t < triangles.size(); ++t)
      for (int c = 0; c < 3; ++c) s.triangles(t, c) = triangles[t][c];
    return s;
  }

 private:
  std::map<std::array<double, 3>, int> index_;
  std::vector<Vec3> points_;
};

float readFloatLE(const unsigned char* p) {
  const std::uint32_t bits = static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
                             (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

TriangleSurface readBinary(const std::string& path, const std::vector<unsigned char>& bytes, std::uint32_t count) {
  VertexWelder welder;
  std::vector<std::array<int, 3>> triangles;
  triangles.reserve(count);
  for (std::uint32_t t = 0; t < count; ++t) {
    const unsigned char* record = bytes.data() + 84 + 50 * static_cast<std::size_t>(t);
    std::array<int, 3> tri;
    for (int c = 0; c < 3; ++c) {
      Vec3 x;
      for (int k = 0; k < 3; ++k) x[k] = readFloatLE(record + 12 + 12 * c + 4 * k);
      if (!x.allFinite())
        throw InputError(path + ": binary STL triangle " + std::to_string(t) + " has a non-finite coordinate");
      tri[c] = welder.add(x);
    }
    triangles.push_back(tri);
  }
  if (triangles.empty()) throw InputError(path + ": STL file contains no triangles");
  return welder.finish(path, triangles);
}

TriangleSurface readAscii(const std::string& path) {
  TextTokenizer in(path);
  VertexWelder welder;
  std::vector<std::array<int, 3>> triangles;
  in.expect("solid");
  in.skipRestOfLine();  // optional name
  while (true) {
    const std::string_view keyword = in.token("'facet' or 'endsolid'");
    if (keyword == "endsolid") break;
    if (keyword != "facet") in.fail("expected 'facet' or 'endsolid', found '" + std::string(keyword) + "'");
    in.expect("normal");
    for (int k = 0; k < 3; ++k) in.real("a facet normal component");
    in.expect("outer");
    in.expect("loop");
    std::array<int, 3> tri;
    for (int c = 0; c < 3; ++c) {
      in.expect("vertex");
      Vec3 x;
      for (int k = 0; k < 3; ++k) x[k] = in.real("a vertex coordinate");
      if (!x.allFinite()) in.fail("non-finite vertex coordinate");
      tri[c] = welder.add(x);
    }
    in.expect("endloop");
    in.expect("endfacet");
    triangles.push_back(tri);
  }
  if (triangles.empty()) in.failFile("STL file contains no triangles");
  return welder.finish(path, triangles);
}

// The little-endian triangle count of a binary STL (bytes 80-83; needs 84 bytes).
std::uint32_t binaryTriangleCount(const std::vector<unsigned char>& bytes) {
  return static_cast<std::uint32_t>(bytes[80]) | (static_cast<std::uint32_t>(bytes[81]) << 8) |
         (static_cast<std::uint32_t>(bytes[82]) << 16) | (static_cast<std::uint32_t>(bytes[83]) << 24);
}

}  // namespace

TriangleSurface readStlSurface(const std::string& path) {
  const std::string text = readInputFile(path, "STL file");
  const std::vector<unsigned char> bytes(text.begin(), text.end());
  if (bytes.size() >= 84) {
    const std::uint32_t count = binaryTriangleCount(bytes);
    if (bytes.size() == 84 + 50 * static_cast<std::size_t>(count)) return readBinary(path, bytes, count);
  }
  const bool asciiStart = bytes.size() >= 5 && std::memcmp(bytes.data(), "solid", 5) == 0;
  // A binary STL may start with "solid" too: one holding a NUL byte is binary, and its
  // size is what is wrong, not its ASCII syntax.
  const bool binaryBytes = std::find(bytes.begin(), bytes.end(), 0) != bytes.end();
  if (!asciiStart || binaryBytes) {
    std::string expected;
    if (bytes.size() >= 84) {
      const std::uint32_t count = binaryTriangleCount(bytes);
      expected = " (binary header: " + std::to_string(count) + " triangles, " +
                 std::to_string(84 + 50 * static_cast<unsigned long long>(count)) + " bytes)";
    }
    throw InputError(path + ": not a valid STL file: " +
                     (asciiStart ? "binary data after a 'solid' header, and " : "no 'solid' header for ASCII, and ") +
                     "the size " + std::to_string(bytes.size()) + " bytes does not match a binary STL's triangle count" +
                     expected + "; truncated?");
  }
  return readAscii(path);
}

}  // namespace softfit

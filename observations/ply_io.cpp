#include "observations/ply_io.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include "forward/errors.h"
#include "forward/io/text_output.h"
#include "forward/mesh/input_file.h"

namespace softfit {

namespace {

enum class Encoding { Ascii, LittleEndian, BigEndian };
enum class ScalarType { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

struct Property {
  std::string name;
  bool isList = false;
  ScalarType countType = ScalarType::UInt8;  // lists only
  ScalarType type = ScalarType::Float32;
};

struct Element {
  std::string name;
  long long count = 0;
  std::vector<Property> properties;
};

int scalarSize(ScalarType t) {
  switch (t) {
    case ScalarType::Int8:
    case ScalarType::UInt8: return 1;
    case ScalarType::Int16:
    case ScalarType::UInt16: return 2;
    case ScalarType::Int32:
    case ScalarType::UInt32:
    case ScalarType::Float32: return 4;
    case ScalarType::Float64: return 8;
  }
  return 0;
}

bool parseScalarType(const std::string& s, ScalarType& t) {
  if (s == "char" || s == "int8") t = ScalarType::Int8;
  else if (s == "uchar" || s == "uint8") t = ScalarType::UInt8;
  else if (s == "short" || s == "int16") t = ScalarType::Int16;
  else if (s == "ushort" || s == "uint16") t = ScalarType::UInt16;
  else if (s == "int" || s == "int32") t = ScalarType::Int32;
  else if (s == "uint" || s == "uint32") t = ScalarType::UInt32;
  else if (s == "float" || s == "float32") t = ScalarType::Float32;
  else if (s == "double" || s == "float64") t = ScalarType::Float64;
  else return false;
  return true;
}

// Decodes one binary scalar (host-independent byte order handling).
double decodeScalar(const unsigned char* p, ScalarType t, Encoding enc) {
  const int n = scalarSize(t);
  std::uint64_t bits = 0;
  for (int i = 0; i < n; ++i) {
    const int shift = enc == Encoding::LittleEndian ? 8 * i : 8 * (n - 1 - i);
    bits |= static_cast<std::uint64_t>(p[i]) << shift;
  }
  switch (t) {
    case ScalarType::Int8: return static_cast<std::int8_t>(bits);
    case ScalarType::UInt8: return static_cast<std::uint8_t>(bits);
    case ScalarType::Int16: return static_cast<std::int16_t>(bits);
    case ScalarType::UInt16: return static_cast<std::uint16_t>(bits);
    case ScalarType::Int32: return static_cast<std::int32_t>(bits);
    case ScalarType::UInt32: return static_cast<std::uint32_t>(bits);
    case ScalarType::Float32: {
      const auto b32 = static_cast<std::uint32_t>(bits);
      float f;
      std::memcpy(&f, &b32, 4);
      return f;
    }
    case ScalarType::Float64: {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
  }
  return 0.0;
}

std::vector<std::string> splitWords(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  std::string w;
  while (in >> w) words.push_back(w);
  return words;
}

struct Header {
  Encoding encoding = Encoding::Ascii;
  std::vector<Element> elements;
  std::size_t dataOffset = 0;  // first byte after "end_header\n"
  int dataLine = 0;            // 1-based line number of the first data line (ascii)
};

// The fewest bytes one record of `e` can take (an ascii value: a character and a separator).
long long minimumRecordBytes(const Element& e, Encoding encoding) {
  long long bytes = 0;
  for (const Property& p : e.properties)
    bytes += encoding == Encoding::Ascii ? 2 : scalarSize(p.isList ? p.countType : p.type);
  return bytes;
}

Header parseHeader(const std::string& path, const std::string& bytes) {
  Header h;
  std::size_t pos = 0;
  int lineNo = 0;
  bool sawFormat = false, sawEnd = false;
  while (pos < bytes.size()) {
    std::size_t eol = bytes.find('\n', pos);
    if (eol == std::string::npos) eol = bytes.size();
    std::string line = bytes.substr(pos, eol - pos);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    pos = eol + 1;
    ++lineNo;
    const auto at = [&](const std::string& what) {
      return InputError(path + ": line " + std::to_string(lineNo) + ": " + what);
    };
    if (lineNo == 1) {
      if (line != "ply") throw InputError(path + ": not a PLY file (the first line must be \"ply\")");
      continue;
    }
    const auto w = splitWords(line);
    if (w.empty()) continue;
    if (w[0] == "comment" || w[0] == "obj_info") continue;
    if (w[0] == "format") {
      if (w.size() != 3) throw at("expected \"format <ascii|binary_little_endian|binary_big_endian> 1.0\"");
      if (w[1] == "ascii") h.encoding = Encoding::Ascii;
      else if (w[1] == "binary_little_endian") h.encoding = Encoding::LittleEndian;
      else if (w[1] == "binary_big_endian") h.encoding = Encoding::BigEndian;
      else throw at("unknown format \"" + w[1] + "\" (valid: ascii, binary_little_endian, binary_big_endian)");
      sawFormat = true;
    } else if (w[0] == "element") {
      if (w.size() != 3) throw at("expected \"element <name> <count>\"");
      Element e;
      e.name = w[1];
      const auto r = std::from_chars(w[2].data(), w[2].data() + w[2].size(), e.count);
      if (r.ec != std::errc() || r.ptr != w[2].data() + w[2].size() || e.count < 0)
        throw at("invalid element count \"" + w[2] + "\"");
      h.elements.push_back(e);
    } else if (w[0] == "property") {
      if (h.elements.empty()) throw at("property before any element");
      Property p;
      if (w.size() == 5 && w[1] == "list") {
        p.isList = true;
        if (!parseScalarType(w[2], p.countType)) throw at("unknown property type \"" + w[2] + "\"");
        if (!parseScalarType(w[3], p.type)) throw at("unknown property type \"" + w[3] + "\"");
        if (p.countType == ScalarType::Float32 || p.countType == ScalarType::Float64)
          throw at("list count type must be an integer type");
        p.name = w[4];
      } else if (w.size() == 3) {
        if (!parseScalarType(w[1], p.type)) throw at("unknown property type \"" + w[1] + "\"");
        p.name = w[2];
      } else {
        throw at("expected \"property <type> <name>\" or \"property list <count type> <type> <name>\"");
      }
      h.elements.back().properties.push_back(p);
    } else if (w[0] == "end_header") {
      sawEnd = true;
      break;
    } else {
      throw at("unexpected header keyword \"" + w[0] + "\"");
    }
  }
  if (!sawEnd) throw InputError(path + ": truncated PLY header (no \"end_header\" line)");
  if (!sawFormat) throw InputError(path + ": PLY header has no \"format\" line");
  h.dataOffset = pos;
  h.dataLine = lineNo + 1;
  return h;
}

// Sequential reader of the data section for either encoding.
class DataReader {
 public:
  DataReader(const std::string& path, const std::string& bytes, const Header& h)
      : path_(path), bytes_(bytes), pos_(h.dataOffset), enc_(h.encoding), line_(h.dataLine) {}

  // Reads one scalar of type t; `what` describes the position for error messages.
  double scalar(ScalarType t, const std::string& what) {
    if (enc_ == Encoding::Ascii) return asciiScalar(what);
    const int n = scalarSize(t);
    if (pos_ + n > bytes_.size()) throw InputError(path_ + ": truncated PLY file: data ends in " + what);
    const double v = decodeScalar(reinterpret_cast<const unsigned char*>(bytes_.data()) + pos_, t, enc_);
    pos_ += n;
    return v;
  }

 private:
  double asciiScalar(const std::string& what) {
    while (pos_ < bytes_.size() && std::isspace(static_cast<unsigned char>(bytes_[pos_]))) {
      if (bytes_[pos_] == '\n') ++line_;
      ++pos_;
    }
    if (pos_ >= bytes_.size()) throw InputError(path_ + ": truncated PLY file: data ends in " + what);
    std::size_t end = pos_;
    while (end < bytes_.size() && !std::isspace(static_cast<unsigned char>(bytes_[end]))) ++end;
    double v = 0.0;
    const char* first = bytes_.data() + pos_;
    const char* last = bytes_.data() + end;
    const char* start = (first < last && *first == '+') ? first + 1 : first;
    const auto r = std::from_chars(start, last, v);
    if (r.ec != std::errc() || r.ptr != last)
      throw InputError(path_ + ": line " + std::to_string(line_) + ": \"" + std::string(first, last) +
                       "\" is not a number (" + what + ")");
    pos_ = end;
    return v;
  }

  const std::string& path_;
  const std::string& bytes_;
  std::size_t pos_;
  Encoding enc_;
  int line_;
};

}  // namespace

PointCloud readPly(const std::string& path) {
  const std::string bytes = readInputFile(path, "PLY file");
  if (bytes.empty()) throw InputError(path + ": empty file (not a PLY file)");
  const Header h = parseHeader(path, bytes);

  int vertexElement = -1;
  for (std::size_t e = 0; e < h.elements.size(); ++e)
    if (h.elements[e].name == "vertex") vertexElement = static_cast<int>(e);
  if (vertexElement < 0) throw InputError(path + ": PLY file has no \"vertex\" element");
  const Element& ve = h.elements[vertexElement];
  int xyz[3] = {-1, -1, -1};
  const char* names[3] = {"x", "y", "z"};
  for (std::size_t p = 0; p < ve.properties.size(); ++p)
    for (int c = 0; c < 3; ++c)
      if (ve.properties[p].name == names[c]) {
        if (ve.properties[p].isList) throw InputError(path + ": vertex property " + names[c] + " must not be a list");
        xyz[c] = static_cast<int>(p);
      }
  for (int c = 0; c < 3; ++c)
    if (xyz[c] < 0) throw InputError(path + ": PLY vertex element has no property \"" + names[c] + "\"");
  if (ve.count > (1LL << 31) - 1) throw InputError(path + ": too many vertices");
  if (countExceedsFile(ve.count, minimumRecordBytes(ve, h.encoding), bytes.size() - h.dataOffset + 1))
    throw InputError(path + ": element vertex " + std::to_string(ve.count) + " is more than the file holds (" +
                     std::to_string(bytes.size() - h.dataOffset) + " data bytes)");

  DataReader reader(path, bytes, h);
  // Skip the elements before the vertex element (lists are read to know their length).
  for (int e = 0; e < vertexElement; ++e) {
    const Element& el = h.elements[e];
    for (long long i = 0; i < el.count; ++i) {
      const std::string what = "element \"" + el.name + "\" " + std::to_string(i);
      for (const Property& p : el.properties) {
        if (p.isList) {
          const double n = reader.scalar(p.countType, what);
          if (n < 0 || n != std::floor(n)) throw InputError(path + ": invalid list length in " + what);
          for (long long k = 0; k < static_cast<long long>(n); ++k) reader.scalar(p.type, what);
        } else {
          reader.scalar(p.type, what);
        }
      }
    }
  }

  PointCloud cloud;
  cloud.points.resize(static_cast<Eigen::Index>(ve.count), 3);
  for (long long i = 0; i < ve.count; ++i) {
    const std::string what = "vertex " + std::to_string(i) + " of " + std::to_string(ve.count);
    for (std::size_t p = 0; p < ve.properties.size(); ++p) {
      const Property& prop = ve.properties[p];
      if (prop.isList) {
        const double n = reader.scalar(prop.countType, what);
        if (n < 0 || n != std::floor(n)) throw InputError(path + ": invalid list length in " + what);
        for (long long k = 0; k < static_cast<long long>(n); ++k) reader.scalar(prop.type, what);
        continue;
      }
      const double v = reader.scalar(prop.type, what);
      for (int c = 0; c < 3; ++c)
        if (static_cast<int>(p) == xyz[c]) cloud.points(static_cast<Eigen::Index>(i), c) = v;
    }
  }
  checkFinitePoints(cloud, path);
  return cloud;
}

void writePly(const std::string& path, const PointCloud& cloud, PlyFormat format) {
  checkFinitePoints(cloud, path + ": cannot write PLY");
  std::string out = "ply\n";
  out += format == PlyFormat::Ascii ? "format ascii 1.0\n" : "format binary_little_endian 1.0\n";
  out += "comment written by softfit\n";
  out += "element vertex " + std::to_string(cloud.size()) + "\n";
  out += "property double x\nproperty double y\nproperty double z\nend_header\n";
  if (format == PlyFormat::Ascii) {
    for (int i = 0; i < cloud.size(); ++i) {
      for (int c = 0; c < 3; ++c) {
        if (c) out += ' ';
        appendDouble(out, cloud.points(i, c));
      }
      out += '\n';
    }
  } else {
    out.reserve(out.size() + 24 * static_cast<std::size_t>(cloud.size()));
    for (int i = 0; i < cloud.size(); ++i)
      for (int c = 0; c < 3; ++c) {
        const double v = cloud.points(i, c);
        std::uint64_t bits;
        std::memcpy(&bits, &v, 8);
        for (int b = 0; b < 8; ++b) out += static_cast<char>((bits >> (8 * b)) & 0xffu);
      }
  }
  writeTextFile(path, out);
}

}  // namespace softfit

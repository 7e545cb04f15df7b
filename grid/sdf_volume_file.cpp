#include "grid/sdf_volume_file.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

#include "forward/errors.h"
#include "forward/mesh/input_file.h"

namespace softfit {

namespace {

namespace fs = std::filesystem;

const char* const kFormat = "softfit-sdf-volume";

nlohmann::json parseHeader(const std::string& path) {
  std::ifstream in = openInputFile(path, "SDF volume header");
  try {
    nlohmann::json header = nlohmann::json::parse(in);
    if (!header.is_object()) throw InputError(path + ": SDF volume header must be a JSON object");
    return header;
  } catch (const nlohmann::json::exception& e) {  // a syntax error, or a number such as 1e400
    throw InputError(path + ": malformed JSON in SDF volume header (" + e.what() + ")");
  }
}

const nlohmann::json& require(const nlohmann::json& header, const std::string& key, const std::string& path) {
  if (!header.contains(key)) throw InputError(path + ": SDF volume header misses \"" + key + "\"");
  return header.at(key);
}

Vec3 readVec3(const nlohmann::json& value, const std::string& key, const std::string& path) {
  if (!value.is_array() || value.size() != 3)
    throw InputError(path + ": \"" + key + "\" must be an array of 3 numbers");
  Vec3 v;
  for (int i = 0; i < 3; ++i) {
    if (!value[i].is_number()) throw InputError(path + ": \"" + key + "\" must be an array of 3 numbers");
    v[i] = value[i].get<double>();
  }
  return v;
}

double decodeLittleEndian(const unsigned char* bytes, bool float32) {
  if (float32) {
    std::uint32_t bits = 0;
    for (int b = 3; b >= 0; --b) bits = (bits << 8) | bytes[b];
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  std::uint64_t bits = 0;
  for (int b = 7; b >= 0; --b) bits = (bits << 8) | bytes[b];
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

}  // namespace

SdfVolume readSdfVolume(const std::string& headerPath) {
  const nlohmann::json header = parseHeader(headerPath);
  const std::set<std::string> allowed = {"format", "version", "dims", "origin", "spacing", "data", "type"};
  for (const auto& item : header.items())
    if (!allowed.count(item.key()))
      throw InputError(headerPath + ": unknown key \"" + item.key() +
                       "\" in SDF volume header (valid: format, version, dims, origin, spacing, data, type)");
  const nlohmann::json& format = require(header, "format", headerPath);
  if (!format.is_string() || format.get<std::string>() != kFormat)
    throw InputError(headerPath + ": \"format\" must be \"" + kFormat + "\"");
  if (header.contains("version") && !(header["version"].is_number_integer() && header["version"].get<long long>() == 1))
    throw InputError(headerPath + ": unsupported \"version\" (only 1)");

  SdfVolume volume;
  volume.source = headerPath;
  const nlohmann::json& dims = require(header, "dims", headerPath);
  if (!dims.is_array() || dims.size() != 3)
    throw InputError(headerPath + ": \"dims\" must be an array of 3 integers");
  for (int i = 0; i < 3; ++i) {
    if (!dims[i].is_number_integer() || dims[i].get<long long>() < 2 || dims[i].get<long long>() > 100000)
      throw InputError(headerPath + ": \"dims\" must hold 3 integers in [2, 100000]");
    volume.dims[i] = dims[i].get<int>();
  }
  volume.origin = readVec3(require(header, "origin", headerPath), "origin", headerPath);
  const nlohmann::json& spacing = require(header, "spacing", headerPath);
  if (spacing.is_number()) volume.spacing = Vec3::Constant(spacing.get<double>());
  else volume.spacing = readVec3(spacing, "spacing", headerPath);
  for (int a = 0; a < 3; ++a)
    if (!(volume.spacing[a] > 0.0) || !std::isfinite(volume.spacing[a]))
      throw InputError(headerPath + ": \"spacing\" must be positive and finite");
  if (!volume.origin.allFinite()) throw InputError(headerPath + ": \"origin\" must be finite");

  bool float32 = false;
  if (header.contains("type")) {
    const nlohmann::json& type = header["type"];
    if (!type.is_string() || (type.get<std::string>() != "float64" && type.get<std::string>() != "float32"))
      throw InputError(headerPath + ": \"type\" must be \"float64\" or \"float32\"");
    float32 = type.get<std::string>() == "float32";
  }
  const nlohmann::json& data = require(header, "data", headerPath);
  if (!data.is_string() || data.get<std::string>().empty())
    throw InputError(headerPath + ": \"data\" must name the raw sample file");
  fs::path raw = data.get<std::string>();
  if (raw.is_relative()) raw = fs::path(headerPath).parent_path() / raw;
  const std::string rawPath = raw.lexically_normal().string();

  const std::string text = readInputFile(rawPath, "the raw sample file named by " + headerPath);
  const std::vector<unsigned char> bytes(text.begin(), text.end());
  const size_t valueBytes = float32 ? 4 : 8;
  const unsigned long long expected = static_cast<unsigned long long>(volume.sampleCount()) * valueBytes;
  if (bytes.size() != expected)
    throw InputError(rawPath + ": has " + std::to_string(bytes.size()) + " bytes, dims " + std::to_string(volume.dims[0]) +
                     "x" + std::to_string(volume.dims[1]) + "x" + std::to_string(volume.dims[2]) + " of " +
                     (float32 ? "float32" : "float64") + " require " + std::to_string(expected));
  volume.values.resize(static_cast<size_t>(volume.sampleCount()));
  for (size_t n = 0; n < volume.values.size(); ++n) {
    volume.values[n] = decodeLittleEndian(bytes.data() + n * valueBytes, float32);
    if (!std::isfinite(volume.values[n]))
      throw InputError(rawPath + ": sample " + std::to_string(n) + " is not finite");
  }
  if (std::none_of(volume.values.begin(), volume.values.end(), [](double v) { return v > 0.0; }))
    throw InputError(rawPath + ": every sample is <= 0 (the body fills the whole sampled box and extends past it; "
                               "the volume must hold the surface with outside samples around it)");
  return volume;
}

void writeSdfVolume(const std::string& headerPath, const SdfVolume& volume) {
  validateSdfVolume(volume);
  const fs::path header(headerPath);
  const fs::path raw = fs::path(header).replace_extension(".f64");
  nlohmann::ordered_json doc;
  doc["format"] = kFormat;
  doc["version"] = 1;
  doc["dims"] = {volume.dims[0], volume.dims[1], volume.dims[2]};
  doc["origin"] = {volume.origin[0], volume.origin[1], volume.origin[2]};
  doc["spacing"] = {volume.spacing[0], volume.spacing[1], volume.spacing[2]};
  doc["data"] = raw.filename().string();
  doc["type"] = "float64";
  {
    std::ofstream out(headerPath);
    if (!out) throw InputError(headerPath + ": cannot write SDF volume header");
    out << doc.dump(2) << "\n";
    if (!out) throw InputError(headerPath + ": cannot write SDF volume header");
  }
  std::vector<unsigned char> bytes(volume.values.size() * 8);
  for (size_t n = 0; n < volume.values.size(); ++n) {
    std::uint64_t bits;
    std::memcpy(&bits, &volume.values[n], sizeof bits);
    for (int b = 0; b < 8; ++b) bytes[8 * n + b] = static_cast<unsigned char>((bits >> (8 * b)) & 0xff);
  }
  std::ofstream out(raw, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw InputError(raw.string() + ": cannot write SDF volume samples");
}

}  // namespace softfit

#include "observations/point_cloud_file.h"

#include <algorithm>
#include <cctype>

#include "forward/errors.h"
#include "observations/xyz_io.h"

namespace softfit {

namespace {

std::string lowerExtension(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

}  // namespace

PointCloud readPointCloud(const std::string& path) {
  const std::string ext = lowerExtension(path);
  if (ext == ".ply") return readPly(path);
  if (ext == ".xyz") return readXyz(path);
  throw InputError(path + ": unknown point-cloud extension \"" + ext + "\" (valid: .ply, .xyz)");
}

void writePointCloud(const std::string& path, const PointCloud& cloud, CloudFileFormat format) {
  switch (format) {
    case CloudFileFormat::PlyBinary: writePly(path, cloud, PlyFormat::BinaryLittleEndian); return;
    case CloudFileFormat::PlyAscii: writePly(path, cloud, PlyFormat::Ascii); return;
    case CloudFileFormat::Xyz: writeXyz(path, cloud); return;
  }
}

std::string cloudFileExtension(CloudFileFormat format) { return format == CloudFileFormat::Xyz ? ".xyz" : ".ply"; }

}  // namespace softfit

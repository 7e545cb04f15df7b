#include "observations/point_cloud_file.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "forward/errors.h"
#include "forward/value_limits.h"
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

// A coordinate past kMaxCoordinate (or not finite) is bad input naming the point, not a
// solve that fails later.
PointCloud checkedCoordinates(PointCloud cloud, const std::string& path) {
  for (int i = 0; i < cloud.size(); ++i)
    for (int c = 0; c < 3; ++c)
      if (!(std::abs(cloud.points(i, c)) <= kMaxCoordinate))
        requireMagnitude(cloud.points(i, c), kMaxCoordinate, path + ": point " + std::to_string(i) + " coordinate " + "xyz"[c]);
  return cloud;
}

}  // namespace

PointCloud readPointCloud(const std::string& path) {
  const std::string ext = lowerExtension(path);
  if (ext == ".ply") return checkedCoordinates(readPly(path), path);
  if (ext == ".xyz") return checkedCoordinates(readXyz(path), path);
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

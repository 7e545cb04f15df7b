#pragma once
// Point-cloud files chosen by extension: ".ply" (readPly / writePly) and ".xyz"
// (readXyz / writeXyz), case-insensitive.
#include <string>

#include "observations/ply_io.h"

namespace softfit {

enum class CloudFileFormat { PlyBinary, PlyAscii, Xyz };

// Throws InputError naming `path` for an unknown extension or any reader error.
PointCloud readPointCloud(const std::string& path);

// Writes `cloud` in `format` (the extension of `path` is not checked).
void writePointCloud(const std::string& path, const PointCloud& cloud, CloudFileFormat format);

// ".ply" for both PLY formats, ".xyz" for XYZ.
std::string cloudFileExtension(CloudFileFormat format);

}  // namespace softfit

#pragma once
// PLY point clouds (Stanford polygon format). Reads the x, y, z properties of the
// "vertex" element from ascii, binary_little_endian and binary_big_endian files; x/y/z
// may have any scalar type (float and double are the usual ones), other vertex
// properties and other elements (faces, ...) are skipped. Writes ascii or
// binary_little_endian files with double x, y, z.
#include <string>

#include "observations/point_cloud.h"

namespace softfit {

enum class PlyFormat { Ascii, BinaryLittleEndian };

// Throws InputError naming `path` (and the header line or vertex) when the file is
// missing, is not PLY, has an unsupported header, no vertex element or x/y/z property,
// is truncated, or a coordinate is not a finite number.
PointCloud readPly(const std::string& path);

// Throws InputError naming `path` when it cannot be written or a point is not finite.
// Deterministic: same cloud, same bytes.
void writePly(const std::string& path, const PointCloud& cloud, PlyFormat format = PlyFormat::BinaryLittleEndian);

}  // namespace softfit

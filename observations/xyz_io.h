#pragma once
// XYZ point clouds: one point per line as whitespace-separated "x y z"; '#' starts a
// comment (to the end of the line); blank lines are skipped; further columns on a line
// (normals, colours) are ignored.
#include <string>

#include "observations/point_cloud.h"

namespace softfit {

// Throws InputError naming `path` and the line when the file is missing, a line has
// fewer than 3 numbers or a token that is not a number, or a coordinate is not finite.
PointCloud readXyz(const std::string& path);

// "x y z" per line with full precision (round-trips exactly) after a comment line.
// Throws InputError naming `path` when it cannot be written or a point is not finite.
void writeXyz(const std::string& path, const PointCloud& cloud);

}  // namespace softfit

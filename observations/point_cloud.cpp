#include "observations/point_cloud.h"

#include <cmath>
#include <sstream>

#include "forward/errors.h"

namespace softfit {

void appendCloud(PointCloud& into, const PointCloud& more, long long pixelOffset) {
  if (more.empty()) return;
  const Eigen::Index n = into.points.rows();
  const bool knownPixels = more.pixels.size() == static_cast<std::size_t>(more.size()) &&
                           (n == 0 || into.pixels.size() == static_cast<std::size_t>(n));
  into.points.conservativeResize(n + more.points.rows(), 3);
  into.points.bottomRows(more.points.rows()) = more.points;
  if (!knownPixels) {
    into.pixels.clear();
    return;
  }
  into.pixels.reserve(static_cast<std::size_t>(into.size()));
  for (long long p : more.pixels) into.pixels.push_back(p + pixelOffset);
}

void checkFinitePoints(const PointCloud& cloud, const std::string& context) {
  for (int i = 0; i < cloud.size(); ++i) {
    const double x = cloud.points(i, 0), y = cloud.points(i, 1), z = cloud.points(i, 2);
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) {
      std::ostringstream msg;
      msg << context << ": point " << i << " has a non-finite coordinate (" << x << ", " << y << ", " << z << ")";
      throw InputError(msg.str());
    }
  }
}

}  // namespace softfit

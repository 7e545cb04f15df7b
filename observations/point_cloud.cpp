#include "observations/point_cloud.h"

#include <cmath>
#include <sstream>

#include "forward/errors.h"

namespace softfit {

void appendCloud(PointCloud& into, const PointCloud& more) {
  if (more.empty()) return;
  const Eigen::Index n = into.points.rows();
  into.points.conservativeResize(n + more.points.rows(), 3);
  into.points.bottomRows(more.points.rows()) = more.points;
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

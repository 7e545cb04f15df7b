#include "observations/observation_json.h"

#include <cmath>

namespace softfit {

Vec3 jsonVec3(const nlohmann::json& j, const std::string& field) {
  if (!j.is_array() || j.size() != 3) throw InputError(field + ": expected [x, y, z] (an array of 3 numbers)");
  Vec3 v;
  for (int i = 0; i < 3; ++i) {
    if (!j[i].is_number()) throw InputError(field + ": expected [x, y, z] (an array of 3 numbers)");
    v[i] = j[i].get<double>();
    if (!std::isfinite(v[i])) throw InputError(field + ": must be finite");
  }
  return v;
}

PointMatrix jsonPointArray(const nlohmann::json& j, const std::string& field) {
  if (!j.is_array()) throw InputError(field + ": expected an array of [x, y, z] points");
  PointMatrix points(static_cast<Eigen::Index>(j.size()), 3);
  for (std::size_t i = 0; i < j.size(); ++i)
    points.row(static_cast<Eigen::Index>(i)) = jsonVec3(j[i], field + "[" + std::to_string(i) + "]").transpose();
  return points;
}

Eigen::Matrix4d jsonMatrix4(const nlohmann::json& j, const std::string& field) {
  const std::string expected = field + ": expected a 4x4 matrix (4 rows of 4 numbers)";
  if (!j.is_array() || j.size() != 4) throw InputError(expected);
  Eigen::Matrix4d m;
  for (int r = 0; r < 4; ++r) {
    if (!j[r].is_array() || j[r].size() != 4) throw InputError(expected);
    for (int c = 0; c < 4; ++c) {
      if (!j[r][c].is_number()) throw InputError(expected);
      m(r, c) = j[r][c].get<double>();
      if (!std::isfinite(m(r, c))) throw InputError(field + ": must be finite");
    }
  }
  return m;
}

nlohmann::json toJson(const Vec3& v) { return nlohmann::json::array({v[0], v[1], v[2]}); }

nlohmann::json toJson(const PointMatrix& points) {
  nlohmann::json a = nlohmann::json::array();
  for (Eigen::Index i = 0; i < points.rows(); ++i) a.push_back({points(i, 0), points(i, 1), points(i, 2)});
  return a;
}

nlohmann::json toJson(const Eigen::Matrix4d& m) {
  nlohmann::json a = nlohmann::json::array();
  for (int r = 0; r < 4; ++r) a.push_back({m(r, 0), m(r, 1), m(r, 2), m(r, 3)});
  return a;
}

}  // namespace softfit

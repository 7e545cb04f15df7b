#pragma once
// Small JSON helpers of the observations module: fixed-size vectors and matrices with
// field-path error messages (as forward/io/json_fields.h does for scalars).
#include <nlohmann/json.hpp>
#include <string>

#include "forward/errors.h"
#include "observations/point_cloud.h"

namespace softfit {

// [x, y, z] of finite numbers; InputError "<field>: expected [x, y, z] ..." otherwise.
Vec3 jsonVec3(const nlohmann::json& j, const std::string& field);
// [[x, y, z], ...]; InputError naming "<field>[i]" for a bad entry.
PointMatrix jsonPointArray(const nlohmann::json& j, const std::string& field);
// 4x4 row-major [[...], [...], [...], [...]] of finite numbers.
Eigen::Matrix4d jsonMatrix4(const nlohmann::json& j, const std::string& field);

nlohmann::json toJson(const Vec3& v);
nlohmann::json toJson(const PointMatrix& points);
nlohmann::json toJson(const Eigen::Matrix4d& m);

// Runs `body`; an InputError it throws is rethrown with "<prefix>: " prepended.
template <class F>
auto withErrorPrefix(const std::string& prefix, F&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const InputError& e) {
    throw InputError(prefix + ": " + e.what());
  }
}

}  // namespace softfit

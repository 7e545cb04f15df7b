#include "forward/io/json_fields.h"

#include <climits>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>

#include "forward/errors.h"
#include "forward/mesh/input_file.h"

namespace softfit {

namespace {

// A JSON integer read as 64 bits and range-checked into an int (no wrap modulo 2^32).
int checkedInteger(const nlohmann::json& j, const std::string& field, const char* expected) {
  if (!j.is_number_integer()) throw InputError(field + ": " + expected);
  const bool fits = j.is_number_unsigned() ? j.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT_MAX)
                                           : j.get<std::int64_t>() >= INT_MIN && j.get<std::int64_t>() <= INT_MAX;
  if (!fits) throw InputError(field + " = " + j.dump() + ": out of range (at most " + std::to_string(INT_MAX) + ")");
  return static_cast<int>(j.get<std::int64_t>());
}

}  // namespace

JsonFields::JsonFields(const nlohmann::json& object, std::string path) : object_(object), path_(std::move(path)) {
  if (!object_.is_object()) throw InputError((path_.empty() ? std::string("scene") : path_) + ": expected a JSON object");
}

void JsonFields::allowOnly(std::initializer_list<const char*> allowed) const {
  allowOnly(std::vector<const char*>(allowed));
}

void JsonFields::allowOnly(const std::vector<const char*>& allowed) const {
  for (auto it = object_.begin(); it != object_.end(); ++it) {
    bool ok = false;
    for (const char* a : allowed) ok = ok || it.key() == a;
    if (!ok) {
      std::string valid;
      for (const char* a : allowed) valid += std::string(valid.empty() ? "" : ", ") + a;
      throw InputError("unknown key \"" + field(it.key()) + "\" (valid keys here: " + valid + ")");
    }
  }
}

const nlohmann::json& JsonFields::require(const std::string& key) const {
  if (!object_.contains(key)) throw InputError("missing required field \"" + field(key) + "\"");
  return object_.at(key);
}

JsonFields JsonFields::object(const std::string& key) const {
  const auto& j = require(key);
  if (!j.is_object()) throw InputError(field(key) + ": expected a JSON object");
  return JsonFields(j, field(key));
}

std::vector<JsonFields> JsonFields::objectArray(const std::string& key) const {
  const auto& j = require(key);
  if (!j.is_array()) throw InputError(field(key) + ": expected an array of objects");
  std::vector<JsonFields> out;
  for (size_t i = 0; i < j.size(); ++i) out.emplace_back(j[i], field(key) + "[" + std::to_string(i) + "]");
  return out;
}

double JsonFields::number(const std::string& key) const {
  const auto& j = require(key);
  if (!j.is_number()) throw InputError(field(key) + ": expected a number");
  const double v = j.get<double>();
  if (!std::isfinite(v)) throw InputError(field(key) + ": must be finite");
  return v;
}

double JsonFields::number(const std::string& key, double fallback) const {
  return has(key) ? number(key) : fallback;
}

double JsonFields::positive(const std::string& key, double fallback) const {
  const double v = number(key, fallback);
  if (!(v > 0.0)) {
    std::ostringstream msg;
    msg << field(key) << " = " << v << ": must be positive";
    throw InputError(msg.str());
  }
  return v;
}

int JsonFields::integer(const std::string& key) const {
  return checkedInteger(require(key), field(key), "expected an integer");
}

int JsonFields::integer(const std::string& key, int fallback) const { return has(key) ? integer(key) : fallback; }

bool JsonFields::boolean(const std::string& key, bool fallback) const {
  if (!has(key)) return fallback;
  const auto& j = object_.at(key);
  if (!j.is_boolean()) throw InputError(field(key) + ": expected true or false");
  return j.get<bool>();
}

std::string JsonFields::string(const std::string& key) const {
  const auto& j = require(key);
  if (!j.is_string()) throw InputError(field(key) + ": expected a string");
  return j.get<std::string>();
}

std::string JsonFields::string(const std::string& key, const std::string& fallback) const {
  return has(key) ? string(key) : fallback;
}

Vec3 JsonFields::vec3(const std::string& key) const {
  const auto& j = require(key);
  if (!j.is_array() || j.size() != 3) throw InputError(field(key) + ": expected an array of 3 numbers");
  Vec3 v;
  for (int i = 0; i < 3; ++i) {
    if (!j[i].is_number()) throw InputError(field(key) + ": expected an array of 3 numbers");
    v[i] = j[i].get<double>();
    if (!std::isfinite(v[i])) throw InputError(field(key) + ": must be finite");
  }
  return v;
}

Vec3 JsonFields::vec3(const std::string& key, const Vec3& fallback) const { return has(key) ? vec3(key) : fallback; }

std::vector<int> JsonFields::integerArray(const std::string& key) const {
  const auto& j = require(key);
  if (!j.is_array()) throw InputError(field(key) + ": expected an array of integers");
  std::vector<int> out;
  for (std::size_t i = 0; i < j.size(); ++i)
    out.push_back(checkedInteger(j[i], field(key) + "[" + std::to_string(i) + "]", "expected an integer"));
  return out;
}

nlohmann::json readJsonFile(const std::string& path) {
  std::ifstream in = openInputFile(path, "JSON file");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {  // a syntax error, or a number such as 1e400
    throw InputError(path + ": invalid JSON: " + e.what());
  }
}

}  // namespace softfit

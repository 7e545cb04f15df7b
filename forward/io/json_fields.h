#pragma once
// Typed, path-tracking access to a JSON object. Every error names the full field path
// (e.g. "material.poisson_ratio"); unknown keys are rejected so typos do not pass
// silently. The scene loader prefixes messages with the file name.
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "forward/types.h"

namespace softfit {

class JsonFields {
 public:
  JsonFields(const nlohmann::json& object, std::string path);

  const std::string& path() const { return path_; }
  bool has(const std::string& key) const { return object_.contains(key); }
  std::string field(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

  // Throws InputError for any key not in `allowed`.
  void allowOnly(std::initializer_list<const char*> allowed) const;
  void allowOnly(const std::vector<const char*>& allowed) const;

  JsonFields object(const std::string& key) const;
  std::vector<JsonFields> objectArray(const std::string& key) const;
  double number(const std::string& key) const;
  double number(const std::string& key, double fallback) const;
  double positive(const std::string& key, double fallback) const;  // > 0 required
  int integer(const std::string& key) const;
  int integer(const std::string& key, int fallback) const;
  bool boolean(const std::string& key, bool fallback) const;
  std::string string(const std::string& key) const;
  std::string string(const std::string& key, const std::string& fallback) const;
  Vec3 vec3(const std::string& key) const;
  Vec3 vec3(const std::string& key, const Vec3& fallback) const;
  std::vector<int> integerArray(const std::string& key) const;

 private:
  const nlohmann::json& require(const std::string& key) const;
  const nlohmann::json& object_;
  std::string path_;
};

// Parses a JSON file; InputError names the file (and line/column of a syntax error, or a
// number beyond the range of a double). Used by every JSON reader (scene/, observations/, face/).
nlohmann::json readJsonFile(const std::string& path);

}  // namespace softfit

#include "optim/report/ground_truth.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "forward/errors.h"
#include "forward/mesh/input_file.h"

namespace softfit {

void writeGroundTruth(const std::string& path, const std::map<std::string, double>& values) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : values) j[name] = value;
  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot open for writing");
  out << j.dump(2) << "\n";
}

std::map<std::string, double> readGroundTruth(const std::string& path) {
  std::map<std::string, double> values;
  if (!std::filesystem::exists(path)) return values;
  std::ifstream in = openInputFile(path, "ground-truth file");
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!it.value().is_number()) throw InputError(path + ": \"" + it.key() + "\" must be a number");
      values[it.key()] = it.value().get<double>();
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path + ": invalid JSON: " + e.what());
  }
  return values;
}

OptionalGroundTruth readOptionalGroundTruth(const std::string& path) {
  OptionalGroundTruth truth;
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return truth;
  try {
    truth.values = readGroundTruth(path);
    for (const auto& [name, value] : truth.values)
      if (!std::isfinite(value)) throw InputError(path + ": \"" + name + "\" must be a finite number");
  } catch (const InputError& e) {
    truth.values.clear();
    truth.warning = std::string(e.what()) + "; the true values are not reported";
  }
  return truth;
}

}  // namespace softfit

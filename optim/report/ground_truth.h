#pragma once
// truth.json next to a synthetic capture: the parameter values it was made with, so a
// fit can report recovered vs true values.
#include <map>
#include <string>

namespace softfit {

void writeGroundTruth(const std::string& path, const std::map<std::string, double>& values);
// Empty when the file does not exist; InputError naming the file when it is malformed.
std::map<std::string, double> readGroundTruth(const std::string& path);

}  // namespace softfit

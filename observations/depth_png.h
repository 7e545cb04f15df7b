#pragma once
// 16-bit grayscale PNG depth images (libpng). Values are raw sensor units (metres =
// value * depth_scale); 0 means "no measurement".
#include <cstdint>
#include <string>
#include <vector>

namespace softfit {

struct DepthImage16 {
  int width = 0, height = 0;
  std::vector<std::uint16_t> values;  // row-major (v * width + u)

  std::uint16_t at(int u, int v) const { return values[static_cast<std::size_t>(v) * width + u]; }
};

// Throws InputError naming `path` when the file is missing, not a PNG, corrupt or
// truncated, or not a single-channel 16-bit image.
DepthImage16 readDepthPng(const std::string& path);

// Writes a 16-bit grayscale PNG. Deterministic. Throws InputError naming `path` when
// the size is invalid or the file cannot be written.
void writeDepthPng(const std::string& path, const DepthImage16& image);

}  // namespace softfit

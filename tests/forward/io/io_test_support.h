#pragma once
// Helpers shared by the writer tests.
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace softfit::testing {

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline int countOccurrences(const std::string& text, const std::string& needle) {
  int n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

// Text between the first `open` after `from` and the next `close`.
inline std::string between(const std::string& text, const std::string& open, const std::string& close,
                           std::size_t from = 0) {
  const std::size_t a = text.find(open, from);
  if (a == std::string::npos) return "";
  const std::size_t b = text.find(close, a + open.size());
  return b == std::string::npos ? "" : text.substr(a + open.size(), b - a - open.size());
}

// Whitespace-separated tokens of a DataArray body.
inline std::vector<std::string> tokens(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      if (!current.empty()) out.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

}  // namespace softfit::testing

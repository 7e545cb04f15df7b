#include "forward/io/text_output.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>

#include "forward/errors.h"

namespace softfit {

void appendDouble(std::string& out, double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 17);
  out.append(buffer, result.ptr);
}

std::string formatDouble(double value) {
  std::string s;
  appendDouble(s, value);
  return s;
}

std::string xmlEscape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

void writeTextFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError(path + ": cannot open file for writing (" + std::strerror(errno) + ")");
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) throw InputError(path + ": error while writing file");
}

}  // namespace softfit

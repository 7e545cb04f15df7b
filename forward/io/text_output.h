#pragma once
// Helpers shared by the writers: locale-independent number formatting and whole-file
// output with InputError on failure.
#include <string>

namespace softfit {

// Appends `value` like printf("%.17g") (full precision, round-trips exactly), but
// independent of the C locale.
void appendDouble(std::string& out, double value);
std::string formatDouble(double value);

// Escapes &, <, >, " and ' for XML attribute values.
std::string xmlEscape(const std::string& text);

// Writes `content` to `path` (truncating). Throws InputError naming the path when the
// file cannot be opened or written.
void writeTextFile(const std::string& path, const std::string& content);

}  // namespace softfit

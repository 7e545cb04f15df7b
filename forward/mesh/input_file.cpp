#include "forward/mesh/input_file.h"

#include <filesystem>
#include <sstream>

#include "forward/errors.h"

namespace softfit {

namespace fs = std::filesystem;

namespace {

// Why `path` is not a regular file, or "" when it is one.
std::string notARegularFile(const std::string& path) {
  if (path.empty()) return "empty path";
  if (path.find('\0') != std::string::npos) return "the path holds a NUL character";
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);  // follows links; never opens the file
  switch (status.type()) {
    case fs::file_type::regular: return "";
    case fs::file_type::not_found: return "does not exist";
    case fs::file_type::directory: return "it is a folder, not a file";
    case fs::file_type::fifo: return "it is a FIFO (named pipe), not a regular file";
    case fs::file_type::character:
    case fs::file_type::block: return "it is a device, not a regular file";
    case fs::file_type::socket: return "it is a socket, not a regular file";
    default: return ec ? ec.message() : "not a regular file";
  }
}

}  // namespace

std::string printablePath(const std::string& path) {
  std::string out;
  for (char c : path) out += c == '\0' ? std::string("\\0") : std::string(1, c);
  return out;
}

void requireRegularFile(const std::string& path, const std::string& what) {
  const std::string reason = notARegularFile(path);
  if (!reason.empty()) throw InputError(printablePath(path) + ": cannot open " + what + " (" + reason + ")");
}

void requireFolder(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (path.empty()) throw InputError(what + ": empty path");
  if (path.find('\0') != std::string::npos)
    throw InputError(printablePath(path) + ": " + what + ": the path holds a NUL character");
  if (!fs::is_directory(path, ec))
    throw InputError(path + ": " + what + ": " + (fs::exists(path, ec) ? "it is not a folder" : "does not exist"));
}

std::ifstream openInputFile(const std::string& path, const std::string& what) {
  requireRegularFile(path, what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open " + what + " (unreadable)");
  return in;
}

std::string readInputFile(const std::string& path, const std::string& what) {
  std::ifstream in = openInputFile(path, what);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw InputError(path + ": error while reading " + what);
  return buffer.str();
}

bool countExceedsFile(long long count, long double minimumBytesPerRecord, std::uintmax_t bytesAvailable) {
  return count > 65536 && count * minimumBytesPerRecord > static_cast<long double>(bytesAvailable);
}

}  // namespace softfit

#include "forward/mesh/temp_directory.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include "forward/errors.h"

namespace softfit {

TempDirectory::TempDirectory(const std::string& prefix) {
  std::error_code ec;
  std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string pattern = (base / (prefix + "XXXXXX")).string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()) == nullptr)
    throw InputError("cannot create a temporary directory '" + pattern + "': " + std::strerror(errno));
  path_ = buffer.data();
}

TempDirectory::~TempDirectory() {
  std::error_code ec;  // best effort; never throws
  std::filesystem::remove_all(path_, ec);
}

std::string TempDirectory::file(const std::string& name) const { return path_ + "/" + name; }

}  // namespace softfit

#include "forward/mesh/temp_directory.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include "forward/errors.h"

namespace softfit {

namespace {

namespace fs = std::filesystem;

// The process id in "<prefix><pid>-XXXXXX", or 0 when the name has another form.
pid_t ownerProcess(const std::string& name, const std::string& prefix) {
  if (name.rfind(prefix, 0) != 0) return 0;
  const std::size_t dash = name.find('-', prefix.size());
  if (dash == std::string::npos || dash == prefix.size() || dash - prefix.size() > 9) return 0;
  pid_t pid = 0;
  for (std::size_t i = prefix.size(); i < dash; ++i) {
    if (name[i] < '0' || name[i] > '9') return 0;
    pid = pid * 10 + (name[i] - '0');
  }
  return pid;
}

// Removes the folders of this prefix that a process of this user left behind when it
// was killed (its id no longer names a process). Best effort; never throws.
void removeStaleDirectories(const fs::path& base, const std::string& prefix) {
  std::error_code ec;
  for (fs::directory_iterator it(base, ec), end; !ec && it != end; it.increment(ec)) {
    const pid_t pid = ownerProcess(it->path().filename().string(), prefix);
    struct stat info {};
    if (pid <= 0 || ::lstat(it->path().c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != ::getuid())
      continue;
    if (::kill(pid, 0) != 0 && errno == ESRCH) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
  }
}

}  // namespace

TempDirectory::TempDirectory(const std::string& prefix) {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  removeStaleDirectories(base, prefix);
  std::string pattern = (base / (prefix + std::to_string(::getpid()) + "-XXXXXX")).string();
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

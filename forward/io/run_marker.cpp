#include "forward/io/run_marker.h"

#include <filesystem>
#include <fstream>

#include "forward/errors.h"

namespace softfit {

namespace fs = std::filesystem;

void beginRun(const std::string& folder, const std::vector<std::string>& outputs) {
  std::error_code ec;
  fs::remove(fs::path(folder) / kRunCompleteMarker, ec);
  for (const std::string& file : outputs) fs::remove(fs::path(folder) / file, ec);
}

void markRunComplete(const std::string& folder, const std::string& summary) {
  const std::string path = (fs::path(folder) / kRunCompleteMarker).string();
  writeAtomically(path, [&](const std::string& temporary) {
    std::ofstream out(temporary);
    out << summary << '\n';
    if (!out.flush()) throw InputError(path + ": cannot write the completion marker");
  });
}

void writeAtomically(const std::string& path, const std::function<void(const std::string&)>& write) {
  const fs::path target(path);
  const std::string temporary = (target.parent_path() / ("." + target.filename().string() + ".partial")).string();
  try {
    write(temporary);
  } catch (...) {
    std::error_code ec;
    fs::remove(temporary, ec);
    throw;
  }
  std::error_code ec;
  fs::rename(temporary, target, ec);
  if (ec) {
    const std::string reason = ec.message();
    fs::remove(temporary, ec);
    throw InputError(path + ": cannot write (" + reason + ")");
  }
}

}  // namespace softfit

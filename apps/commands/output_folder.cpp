#include "apps/commands/output_folder.h"

#include <filesystem>

#include "forward/errors.h"

namespace softfit::apps {

void requireOutputFolder(const std::string& path, const std::string& option) {
  if (path.empty()) throw InputError(option + ": the output folder is empty (name a folder)");
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::exists(status) && !std::filesystem::is_directory(status))
    throw InputError(option + " " + path + ": exists and is not a folder (the output folder must be a folder)");
}

}  // namespace softfit::apps

#include "apps/commands/output_folder.h"

#include "forward/io/output_folder.h"

namespace softfit::apps {

void requireOutputFolder(const std::string& path, const std::vector<std::string>& inputs, const std::string& option) {
  checkOutputFolder(path, inputs, option);
}

}  // namespace softfit::apps

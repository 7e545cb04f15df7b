#pragma once
// The `-o` output folder of a command, checked before any work is done.
#include <string>
#include <vector>

namespace softfit::apps {

// InputError naming the option unless `path` is non-empty, either does not exist yet or
// is a folder (so a long run never ends in "cannot create folder: file exists"), is not
// the current folder (or above it) and neither is nor holds one of the command's
// `inputs` (forward/io/output_folder.h).
void requireOutputFolder(const std::string& path, const std::vector<std::string>& inputs,
                         const std::string& option = "-o");

}  // namespace softfit::apps

#pragma once
// The `-o` output folder of a command, checked before any work is done.
#include <string>

namespace softfit::apps {

// InputError naming the option unless `path` is non-empty and either does not exist yet
// or is a folder (so a long run never ends in "cannot create folder: file exists").
void requireOutputFolder(const std::string& path, const std::string& option = "-o");

}  // namespace softfit::apps

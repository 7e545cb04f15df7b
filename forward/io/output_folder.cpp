#include "forward/io/output_folder.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "forward/errors.h"
#include "forward/io/run_marker.h"

namespace softfit {

namespace fs = std::filesystem;

namespace {

constexpr const char* kManifestHeader = "# softfit outputs: the files this folder's last run wrote";

// The absolute path with symbolic links resolved as far as it exists, '.' and '..'
// folded and no trailing separator.
fs::path resolvedPath(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) p = fs::absolute(path).lexically_normal();
  p = p.lexically_normal();
  if (p.filename().empty() && p.has_relative_path()) p = p.parent_path();
  return p;
}

// `inner` is `outer` or lies below it.
bool holds(const fs::path& outer, const fs::path& inner) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i)
    if (i == inner.end() || *o != *i) return false;
  return true;
}

// The relative paths an earlier run listed in `folder`'s manifest; `present` tells
// whether there was one. InputError when a file of that name is not a softfit manifest.
std::set<std::string> readManifest(const fs::path& folder, const std::string& name, bool& present) {
  std::set<std::string> listed;
  const fs::path file = folder / kOutputManifest;
  std::error_code ec;
  present = fs::exists(fs::symlink_status(file, ec));
  if (!present) return listed;
  std::ifstream in;
  if (fs::is_regular_file(fs::symlink_status(file, ec))) in.open(file);
  std::string line;
  if (!in || !std::getline(in, line) || line != kManifestHeader)
    throw InputError(name + " " + folder.string() + ": holds " + kOutputManifest +
                     ", which softfit did not write; name another output folder");
  while (std::getline(in, line)) {
    const fs::path p(line);
    // Only plain relative paths inside the folder count; anything else is never removed.
    if (line.empty() || p.is_absolute() ||
        std::any_of(p.begin(), p.end(), [](const fs::path& c) { return c == ".." || c == "."; }))
      continue;
    listed.insert(p.generic_string());
  }
  return listed;
}

void writeManifest(const fs::path& folder, const std::set<std::string>& files) {
  const std::string path = (folder / kOutputManifest).string();
  writeAtomically(path, [&](const std::string& temporary) {
    std::ofstream out(temporary);
    out << kManifestHeader << '\n';
    for (const std::string& f : files) out << f << '\n';
    if (!out.flush()) throw InputError(path + ": cannot write the list of written files");
  });
}

// The regular files below `root`, relative to it, in a fixed order.
std::set<std::string> filesBelow(const fs::path& root) {
  std::set<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (!entry.is_directory()) files.insert(fs::relative(entry.path(), root).generic_string());
  return files;
}

}  // namespace

void checkOutputFolder(const std::string& folder, const std::vector<std::string>& inputs, const std::string& name) {
  if (folder.empty()) throw InputError(name + ": the output folder is empty (name a folder)");
  if (folder.find('\0') != std::string::npos) throw InputError(name + ": the output folder's path holds a NUL character");
  std::error_code ec;
  const auto status = fs::status(folder, ec);
  if (fs::exists(status) && !fs::is_directory(status))
    throw InputError(name + " " + folder + ": exists and is not a folder (the output folder must be a folder)");
  const fs::path out = resolvedPath(folder);
  if (holds(out, resolvedPath(fs::current_path(ec).string())))
    throw InputError(name + " " + folder +
                     ": is the current folder or holds it; the outputs need a folder of their own (name a new one)");
  for (const std::string& input : inputs) {
    if (input.empty() || !fs::exists(fs::symlink_status(input, ec))) continue;
    if (holds(out, resolvedPath(input)))
      throw InputError(name + " " + folder + ": " + (resolvedPath(input) == out ? "is" : "holds") + " the input " +
                       input + "; name an output folder outside the inputs");
  }
}

StagedFolder::StagedFolder(const std::string& output, const std::vector<std::string>& inputs,
                           const std::vector<std::string>& ownNames, const std::string& name)
    : output_(resolvedPath(output).string()), name_(name), ownNames_(ownNames) {
  checkOutputFolder(output, inputs, name);
  const fs::path out(output_);
  std::error_code ec;
  if (fs::exists(out, ec)) {
    bool present = false;
    const std::set<std::string> listed = readManifest(out, name, present);
    for (const std::string& own : ownNames_) {
      const fs::path p = out / own;
      if (!fs::exists(fs::symlink_status(p, ec))) continue;
      std::set<std::string> found;
      if (fs::is_directory(fs::symlink_status(p, ec))) {
        for (const std::string& f : filesBelow(p)) found.insert((fs::path(own) / f).generic_string());
      } else {
        found.insert(own);
      }
      for (const std::string& f : found)
        if (!listed.count(f))
          throw InputError(name + " " + output + ": holds " + f +
                           ", which no earlier run of this command wrote; name a new or empty output folder");
    }
  }
  fs::create_directories(out.parent_path(), ec);
  std::string pattern = (out.parent_path() / ("." + out.filename().string() + ".softfit-staging-XXXXXX")).string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!mkdtemp(buffer.data()))
    throw InputError(name + " " + output + ": cannot create a folder beside it to write into (" +
                     std::string(std::strerror(errno)) + ")");
  staging_ = buffer.data();
}

StagedFolder::~StagedFolder() {
  std::error_code ec;
  if (!staging_.empty()) fs::remove_all(staging_, ec);  // the uniquely named folder this object made
}

void StagedFolder::install() {
  const fs::path out(output_), staging(staging_);
  const std::set<std::string> written = filesBelow(staging);
  std::error_code ec;
  if (!fs::exists(out, ec)) {
    writeManifest(staging, written);
    fs::rename(staging, out, ec);
    if (ec) throw InputError(name_ + " " + output_ + ": cannot move the outputs into place (" + ec.message() + ")");
    staging_.clear();
    return;
  }
  bool present = false;
  const std::set<std::string> earlier = readManifest(out, name_, present);
  // While files move, the manifest lists both runs' files: an interrupted install leaves
  // nothing of softfit's unlisted.
  std::set<std::string> both = earlier;
  both.insert(written.begin(), written.end());
  writeManifest(out, both);
  for (const std::string& f : earlier) {
    const fs::path p = out / f;
    if (!fs::is_directory(fs::symlink_status(p, ec))) fs::remove(p, ec);
    // The folders this leaves empty go too (never a folder that still holds anything).
    for (fs::path dir = p.parent_path(); dir != out && holds(out, dir); dir = dir.parent_path())
      if (!fs::is_empty(dir, ec) || ec || !fs::remove(dir, ec)) break;
  }
  for (const std::string& f : written) {
    const fs::path target = out / f;
    if (fs::exists(fs::symlink_status(target, ec)))
      throw InputError(name_ + " " + output_ + ": holds " + f + ", which this run did not write; it is left as it was");
    fs::create_directories(target.parent_path(), ec);
    fs::rename(staging / f, target, ec);
    if (ec) throw InputError(name_ + " " + output_ + ": cannot move " + f + " into place (" + ec.message() + ")");
  }
  writeManifest(out, written);
}

}  // namespace softfit

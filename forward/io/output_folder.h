#pragma once
// Output folders that can never cost the user data: checked before any work is done, and
// filled without removing anything the writer did not write.
//
// checkOutputFolder refuses a folder that is empty, exists and is not a folder, is the
// current folder (or holds it), or is (or holds) one of the run's inputs: a run writing
// there could overwrite or remove what it reads, or files of the user's.
//
// A writer that assembles its outputs in a staging folder (StagedFolder) installs them
// into the output folder at the end: a new folder is renamed into place; an existing one
// keeps every file the writer did not write. An earlier run's files are known by the
// manifest (`kOutputManifest`) it left; its files are replaced, nothing else is removed.
#include <string>
#include <vector>

namespace softfit {

constexpr const char* kOutputManifest = "files_written.txt";

// InputError "NAME FOLDER: ..." (NAME is how the caller's user names the folder: a CLI
// option, a Python argument) for the cases above. Inputs that do not exist are ignored.
void checkOutputFolder(const std::string& folder, const std::vector<std::string>& inputs, const std::string& name);

// A fresh, uniquely named folder beside an output folder, to write a run's outputs into.
// The destructor removes it (and only it) unless install() moved its contents out.
class StagedFolder {
 public:
  // checkOutputFolder(output, inputs, name) first. `ownNames`: the top-level names the
  // writer puts into the output folder. InputError (naming `name`) when the output folder
  // holds one of them that no earlier run of this writer listed in its manifest:
  // installing would replace a user's file.
  StagedFolder(const std::string& output, const std::vector<std::string>& inputs,
               const std::vector<std::string>& ownNames, const std::string& name);
  ~StagedFolder();
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;

  const std::string& path() const { return staging_; }

  // Moves every file of the staging folder into the output folder and writes the
  // manifest (the list of those files). An earlier run's listed files are removed first
  // (and the folders that are empty after that); no other file is touched.
  void install();

 private:
  std::string output_, staging_, name_;
  std::vector<std::string> ownNames_;
};

}  // namespace softfit

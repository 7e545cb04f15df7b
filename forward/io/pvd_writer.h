#pragma once
// ParaView collection (.pvd) listing the .vtu file of each time step.
#include <string>
#include <utility>
#include <vector>

namespace softfit {

class PvdWriter {
 public:
  // Writes an empty collection to `path` right away (so an unwritable location fails
  // early); throws InputError naming the path.
  explicit PvdWriter(std::string path);

  // Records a time step and rewrites the whole .pvd, so the file is complete and
  // loadable after every call (e.g. while a simulation is still running). `vtuPath` is
  // the path the .vtu was written to (absolute, or relative to the working directory);
  // the collection stores it relative to the .pvd's folder, as ParaView expects.
  // Throws InputError naming the .pvd when it cannot be written, or when called after
  // finalize().
  void addTimestep(double time, const std::string& vtuPath);

  // Writes the file a last time; later addTimestep calls throw. Idempotent.
  void finalize();

  const std::string& path() const { return path_; }
  int timestepCount() const { return static_cast<int>(entries_.size()); }

 private:
  void write() const;

  std::string path_;
  std::string folder_;  // absolute folder of the .pvd
  std::vector<std::pair<double, std::string>> entries_;  // time, file relative to folder_
  bool finalized_ = false;
};

}  // namespace softfit

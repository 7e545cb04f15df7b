#pragma once
// A uniquely named directory under the system temporary folder, removed with its
// contents when the object is destroyed.
#include <string>

namespace softfit {

class TempDirectory {
 public:
  // Creates <tmp>/<prefix><pid>-XXXXXX (mkdtemp); throws InputError if that fails.
  // First removes the folders <tmp>/<prefix><pid>-* of this user whose process no
  // longer runs (a run killed while TetGen ran left them behind).
  explicit TempDirectory(const std::string& prefix = "softfit-");
  ~TempDirectory();
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;

  const std::string& path() const { return path_; }
  // path() + "/" + name
  std::string file(const std::string& name) const;

 private:
  std::string path_;
};

}  // namespace softfit

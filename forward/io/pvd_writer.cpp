#include "forward/io/pvd_writer.h"

#include <filesystem>

#include "forward/errors.h"
#include "forward/io/text_output.h"

namespace softfit {

namespace fs = std::filesystem;

PvdWriter::PvdWriter(std::string path) : path_(std::move(path)) {
  folder_ = fs::absolute(fs::path(path_)).lexically_normal().parent_path().string();
  write();
}

void PvdWriter::addTimestep(double time, const std::string& vtuPath) {
  if (finalized_) throw InputError(path_ + ": cannot add a time step after finalize()");
  const fs::path absolute = fs::absolute(fs::path(vtuPath)).lexically_normal();
  fs::path relative = absolute.lexically_relative(folder_);
  if (relative.empty()) relative = absolute;
  entries_.emplace_back(time, relative.generic_string());
  write();
}

void PvdWriter::finalize() {
  if (finalized_) return;
  write();
  finalized_ = true;
}

void PvdWriter::write() const {
  std::string out;
  out += "<?xml version=\"1.0\"?>\n";
  out += "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n";
  out += "  <Collection>\n";
  for (const auto& [time, file] : entries_) {
    out += "    <DataSet timestep=\"";
    appendDouble(out, time);
    out += "\" group=\"\" part=\"0\" file=\"" + xmlEscape(file) + "\"/>\n";
  }
  out += "  </Collection>\n</VTKFile>\n";
  writeTextFile(path_, out);
}

}  // namespace softfit

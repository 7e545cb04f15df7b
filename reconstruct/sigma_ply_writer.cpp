#include "reconstruct/sigma_ply_writer.h"

#include <cstring>
#include <fstream>

#include "forward/errors.h"

namespace softfit {

void writePlyWithSigma(const std::string& path, const PointCloud& cloud, const std::vector<double>& sigmas) {
  if (static_cast<int>(sigmas.size()) != cloud.size())
    throw InputError(path + ": " + std::to_string(sigmas.size()) + " sigmas for " + std::to_string(cloud.size()) + " points");
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError(path + ": cannot write the point cloud");
  out << "ply\nformat binary_little_endian 1.0\ncomment softfit reconstruct: sigma = depth noise (m)\nelement vertex "
      << cloud.size() << "\nproperty double x\nproperty double y\nproperty double z\nproperty double sigma\nend_header\n";
  static_assert(sizeof(double) == 8, "IEEE double");
  for (int i = 0; i < cloud.size(); ++i) {
    const double row[4] = {cloud.points(i, 0), cloud.points(i, 1), cloud.points(i, 2), sigmas[i]};
    char bytes[32];
    std::memcpy(bytes, row, sizeof bytes);  // x86-64 and ARM64 are little-endian
    out.write(bytes, sizeof bytes);
  }
  if (!out) throw InputError(path + ": write failed");
}

}  // namespace softfit

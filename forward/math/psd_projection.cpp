#include "forward/math/psd_projection.h"

#include <stdexcept>

#include "forward/errors.h"

namespace softfit {

EigenvalueFilter parseEigenvalueFilter(const std::string& name, const std::string& field) {
  if (name == "none") return EigenvalueFilter::None;
  if (name == "clamp") return EigenvalueFilter::Clamp;
  if (name == "abs") return EigenvalueFilter::Abs;
  throw InputError(field + " = '" + name + "': unknown eigenvalue filter (valid: none, clamp, abs)");
}

std::string eigenvalueFilterName(EigenvalueFilter filter) {
  switch (filter) {
    case EigenvalueFilter::None: return "none";
    case EigenvalueFilter::Clamp: return "clamp";
    case EigenvalueFilter::Abs: return "abs";
  }
  return "none";
}

void projectToPsd(Eigen::Ref<Eigen::MatrixXd> H, EigenvalueFilter filter, double eps) {
  if (H.rows() != H.cols()) throw std::invalid_argument("projectToPsd: matrix is not square");
  if (filter == EigenvalueFilter::None) return;
  Eigen::MatrixXd copy = H;
  projectToPsd<Eigen::Dynamic>(copy, filter, eps);
  H = copy;
}

}  // namespace softfit

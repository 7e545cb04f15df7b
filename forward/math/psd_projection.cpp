#include "forward/math/psd_projection.h"

#include <stdexcept>

#include "forward/errors.h"

namespace softfit {

EigenvalueFilter parseEigenvalueFilter(const std::string& name, const std::string& field) {
  if (name == "none") return EigenvalueFilter::None;
  if (name == "clamp") return EigenvalueFilter::Clamp;
  if (name == "abs") return EigenvalueFilter::Abs;
  if (name == "adaptive") return EigenvalueFilter::Adaptive;
  if (name == "exact_first") return EigenvalueFilter::ExactFirst;
  throw InputError(field + " = '" + name +
                   "': unknown eigenvalue filter (valid: none, clamp, abs, adaptive, exact_first)");
}

EigenvalueFilter elementFilter(EigenvalueFilter configured, HessianKind kind) {
  if (kind == HessianKind::Exact) return EigenvalueFilter::None;
  if (configured == EigenvalueFilter::ExactFirst) return EigenvalueFilter::Clamp;
  if (configured != EigenvalueFilter::Adaptive) return configured;
  return kind == HessianKind::FilteredModelTrusted ? EigenvalueFilter::Clamp : EigenvalueFilter::Abs;
}

std::string eigenvalueFilterName(EigenvalueFilter filter) {
  switch (filter) {
    case EigenvalueFilter::None: return "none";
    case EigenvalueFilter::Clamp: return "clamp";
    case EigenvalueFilter::Abs: return "abs";
    case EigenvalueFilter::Adaptive: return "adaptive";
    case EigenvalueFilter::ExactFirst: return "exact_first";
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

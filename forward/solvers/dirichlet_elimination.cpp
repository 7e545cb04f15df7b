#include "forward/solvers/dirichlet_elimination.h"

#include <algorithm>
#include <cmath>

namespace softfit {

void eliminateDirichlet(SparseMatrix& A, VecX& b, const DofMask& fixed, const VecX& values) {
  if (std::none_of(fixed.begin(), fixed.end(), [](char f) { return f != 0; })) return;  // nothing prescribed
  for (int c = 0; c < A.outerSize(); ++c) {
    for (SparseMatrix::InnerIterator it(A, c); it; ++it) {
      const int r = static_cast<int>(it.row());
      if (fixed[c]) {
        if (!fixed[r]) b[r] -= it.value() * values[c];
        it.valueRef() = (r == c) ? 1.0 : 0.0;
      } else if (fixed[r]) {
        it.valueRef() = 0.0;
      }
    }
  }
  for (int i = 0; i < b.size(); ++i)
    if (fixed[i]) b[i] = values[i];
}

void zeroConstrained(Eigen::Ref<MatX> v, const DofMask& fixed) {
  for (Eigen::Index c = 0; c < v.cols(); ++c)
    for (Eigen::Index i = 0; i < v.rows(); ++i)
      if (fixed[i]) v(i, c) = 0.0;
}

double freeInfinityNorm(const VecX& v, const DofMask& fixed) {
  double m = 0.0;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (!fixed[i]) m = std::max(m, std::abs(v[i]));
  return m;
}

}  // namespace softfit

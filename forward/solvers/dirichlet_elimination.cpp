#include "forward/solvers/dirichlet_elimination.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

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

ConstrainedColumns::ConstrainedColumns(const SparseMatrix& A, const DofMask& fixed) {
  if (!A.isCompressed() || A.rows() != A.cols() || static_cast<Eigen::Index>(fixed.size()) != A.rows())
    throw std::logic_error("ConstrainedColumns: a square compressed matrix and one flag per dof expected");
  for (int c = 0; c < A.outerSize(); ++c) {
    if (!fixed[c]) continue;
    for (int k = A.outerIndexPtr()[c]; k < A.outerIndexPtr()[c + 1]; ++k)
      if (!fixed[A.innerIndexPtr()[k]]) {
        index_.push_back(k);
        row_.push_back(A.innerIndexPtr()[k]);
        column_.push_back(c);
      }
  }
  values_.setZero(static_cast<Eigen::Index>(index_.size()));
}

void ConstrainedColumns::setValues(const SparseMatrix& A) {
  for (std::size_t k = 0; k < index_.size(); ++k) values_[static_cast<Eigen::Index>(k)] = A.valuePtr()[index_[k]];
}

void ConstrainedColumns::subtractProduct(const VecX& v, Eigen::Ref<VecX> b) const {
  for (std::size_t k = 0; k < index_.size(); ++k) b[row_[k]] -= values_[static_cast<Eigen::Index>(k)] * v[column_[k]];
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

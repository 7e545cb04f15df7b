#include "forward/solvers/galerkin_plan.h"

#include <algorithm>
#include <stdexcept>

#include "forward/math/parallel_ranges.h"
#include "forward/solvers/symmetric_product.h"

namespace softfit {

namespace {

// Below this many terms (~1 ms of work) a product is not worth waking a second worker
// for; larger plans sum in kChunks fixed chunks (so the bits do not depend on the
// thread count).
constexpr std::size_t kParallelTerms = 500000;
constexpr int kChunks = 4;

using Block9 = Eigen::Matrix<double, 9, 1>;

struct Parent {
  int coarse;
  double weight;
};

// Per fine node: its coarse nodes and weights (the rows of the nodal prolongation), by
// increasing coarse index.
std::vector<std::vector<Parent>> parentsOf(const SparseMatrix& nodal) {
  std::vector<std::vector<Parent>> parents(nodal.rows());
  for (int c = 0; c < nodal.outerSize(); ++c)
    for (SparseMatrix::InnerIterator it(nodal, c); it; ++it) parents[it.row()].push_back({c, it.value()});
  return parents;
}

}  // namespace

bool GalerkinPlan::supports(const SparseMatrix& A) {
  if (!hasBlockColumns(A)) return false;
  const int* outer = A.outerIndexPtr();
  const int* inner = A.innerIndexPtr();
  for (int j = 0; j < A.cols() / 3; ++j)
    if (!std::binary_search(inner + outer[3 * j], inner + outer[3 * j + 1], 3 * j)) return false;
  return true;
}

GalerkinPlan::GalerkinPlan(const SparseMatrix& A, const SparseMatrix& nodal, const DofMask* fixed)
    : fineNodes_(static_cast<int>(A.cols() / 3)), coarseNodes_(static_cast<int>(nodal.cols())) {
  if (!supports(A)) throw std::invalid_argument("GalerkinPlan: the matrix has no 3x3-block columns with diagonal blocks");
  if (nodal.rows() != fineNodes_) throw std::invalid_argument("GalerkinPlan: prolongation rows differ from the matrix");
  if (fixed && static_cast<Eigen::Index>(fixed->size()) != A.rows())
    throw std::invalid_argument("GalerkinPlan: dof mask size differs from the matrix");
  const int* outer = A.outerIndexPtr();
  const int* inner = A.innerIndexPtr();
  fineOuter_.assign(outer, outer + A.cols() + 1);
  fineInner_.assign(inner, inner + A.nonZeros());
  fineFree_.assign(A.rows(), 1);
  if (fixed)
    for (Eigen::Index d = 0; d < A.rows(); ++d) {
      fineFree_[d] = (*fixed)[d] ? 0 : 1;
      masked_ = masked_ || (*fixed)[d];
    }

  // Fine lower blocks (i >= j), block column by block column.
  fineColumnStart_.assign(1, 0);
  for (int j = 0; j < fineNodes_; ++j) {
    const int* begin = inner + outer[3 * j];
    const int* end = inner + outer[3 * j + 1];
    for (const int* it = std::lower_bound(begin, end, 3 * j); it != end; it += 3) {
      fineRow_.push_back(*it / 3);
      fineBlockOffset_.push_back(static_cast<int>(it - begin));
    }
    fineColumnStart_.push_back(static_cast<int>(fineRow_.size()));
  }

  // Every (coarse lower block (I, J), transposed?, weight) a fine lower block q = (i, j)
  // adds to: P_iI P_jJ A_ij to C_IJ and its transpose to C_JI, kept where it is lower.
  const std::vector<std::vector<Parent>> parents = parentsOf(nodal);
  auto forEachTerm = [&](auto&& emit) {
    for (int j = 0; j < fineNodes_; ++j)
      for (int q = fineColumnStart_[j]; q < fineColumnStart_[j + 1]; ++q) {
        const int i = fineRow_[q];
        for (const Parent& pi : parents[i])
          for (const Parent& pj : parents[j]) {
            const double product = pi.weight * pj.weight;
            const float w = static_cast<float>(product);
            if (static_cast<double>(w) != product)
              throw std::invalid_argument("GalerkinPlan: a prolongation weight product is not exact in float");
            const int I = pi.coarse, J = pj.coarse;
            if (i == j) {  // A_ii symmetric: the lower coarse block gets it once
              if (I >= J) emit(q, I, J, false, w);
            } else if (I > J) {
              emit(q, I, J, false, w);
            } else if (I < J) {
              emit(q, J, I, true, w);  // C_JI += w A_ij^T
            } else {
              emit(q, I, J, false, w);
              emit(q, I, J, true, w);
            }
          }
      }
  };

  // The coarse lower blocks: per coarse column J, its rows I >= J (sorted, unique).
  std::vector<std::vector<int>> rows(coarseNodes_);
  forEachTerm([&](int, int I, int J, bool, float) { rows[J].push_back(I); });
  coarseColumnStart_.assign(1, 0);
  std::vector<std::vector<int>> upper(coarseNodes_);  // per column I: the J < I of the blocks mirrored into it
  for (int J = 0; J < coarseNodes_; ++J) {
    std::vector<int>& r = rows[J];
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    if (r.empty() || r.front() != J) throw std::invalid_argument("GalerkinPlan: a coarse node has no diagonal block");
    for (int I : r) {
      coarseRow_.push_back(I);
      if (I != J) upper[I].push_back(J);
    }
    coarseColumnStart_.push_back(static_cast<int>(coarseRow_.size()));
  }

  // Terms in fine block order (compute() streams A once).
  termStart_.assign(1, 0);
  int previous = 0;
  forEachTerm([&](int q, int I, int J, bool transposed, float w) {
    for (; previous < q; ++previous) termStart_.push_back(static_cast<int>(terms_.size()));
    const auto first = coarseRow_.begin() + coarseColumnStart_[J], last = coarseRow_.begin() + coarseColumnStart_[J + 1];
    const int b = static_cast<int>(std::lower_bound(first, last, I) - coarseRow_.begin());
    terms_.push_back({2 * b + (transposed ? 1 : 0), w});
  });
  for (; previous < static_cast<int>(fineRow_.size()); ++previous) termStart_.push_back(static_cast<int>(terms_.size()));

  // C's structure: block column J holds the mirrored blocks (rows < J, increasing) and
  // then its lower blocks.
  const int n = 3 * coarseNodes_;
  std::vector<int> columnLength(coarseNodes_);
  Eigen::Index nonZeros = 0;
  for (int J = 0; J < coarseNodes_; ++J) {
    columnLength[J] = 3 * static_cast<int>(upper[J].size() + coarseColumnStart_[J + 1] - coarseColumnStart_[J]);
    nonZeros += 3 * static_cast<Eigen::Index>(columnLength[J]);
  }
  pattern_ = SparseMatrix(n, n);
  pattern_.resizeNonZeros(nonZeros);
  int* cOuter = pattern_.outerIndexPtr();
  int* cInner = pattern_.innerIndexPtr();
  cOuter[0] = 0;
  for (int J = 0; J < coarseNodes_; ++J)
    for (int k = 0; k < 3; ++k) cOuter[3 * J + k + 1] = cOuter[3 * J + k] + columnLength[J];
  for (int J = 0; J < coarseNodes_; ++J) {
    std::vector<int> all = upper[J];
    all.insert(all.end(), coarseRow_.begin() + coarseColumnStart_[J], coarseRow_.begin() + coarseColumnStart_[J + 1]);
    for (int k = 0; k < 3; ++k) {
      int* out = cInner + cOuter[3 * J + k];
      for (int I : all)
        for (int r = 0; r < 3; ++r) *out++ = 3 * I + r;
    }
  }
  std::fill(pattern_.valuePtr(), pattern_.valuePtr() + nonZeros, 0.0);

  // Where each lower block and its mirror go.
  lowerOffset_.resize(coarseRow_.size());
  mirrorOffset_.assign(coarseRow_.size(), -1);
  std::vector<int> mirrorsSeen(coarseNodes_, 0);
  for (int J = 0; J < coarseNodes_; ++J)
    for (int b = coarseColumnStart_[J]; b < coarseColumnStart_[J + 1]; ++b) {
      lowerOffset_[b] = 3 * static_cast<int>(upper[J].size() + b - coarseColumnStart_[J]);
      const int I = coarseRow_[b];
      if (I != J) mirrorOffset_[b] = 3 * mirrorsSeen[I]++;  // upper[I] lists the J in this order
    }

  // Fixed chunks of fine block columns (by term count), whatever the thread count.
  const int chunks = terms_.size() >= kParallelTerms ? kChunks : 1;
  chunkBounds_.assign(1, 0);
  for (int c = 1; c < chunks; ++c) {
    const int target = static_cast<int>(static_cast<long long>(terms_.size()) * c / chunks);
    int j = chunkBounds_.back();
    while (j < fineNodes_ && termStart_[fineColumnStart_[j]] < target) ++j;
    chunkBounds_.push_back(j);
  }
  chunkBounds_.push_back(fineNodes_);
  sums_.assign(chunks, std::vector<double>());
}

bool GalerkinPlan::matches(const SparseMatrix& A) const {
  if (A.rows() != 3 * fineNodes_ || A.cols() != A.rows() || !A.isCompressed()) return false;
  if (A.nonZeros() != static_cast<Eigen::Index>(fineInner_.size())) return false;
  return std::equal(fineOuter_.begin(), fineOuter_.end(), A.outerIndexPtr()) &&
         std::equal(fineInner_.begin(), fineInner_.end(), A.innerIndexPtr());
}

void GalerkinPlan::compute(const SparseMatrix& A, SparseMatrix& C, int threads) {
  if (!matches(A)) throw std::logic_error("GalerkinPlan::compute: matrix structure differs from the plan's");
  const bool samePattern =
      C.rows() == pattern_.rows() && C.cols() == pattern_.cols() && C.nonZeros() == pattern_.nonZeros() &&
      C.isCompressed() &&
      std::equal(pattern_.outerIndexPtr(), pattern_.outerIndexPtr() + pattern_.cols() + 1, C.outerIndexPtr()) &&
      std::equal(pattern_.innerIndexPtr(), pattern_.innerIndexPtr() + pattern_.nonZeros(), C.innerIndexPtr());
  if (!samePattern) C = pattern_;
  const int chunks = static_cast<int>(sums_.size());
  const int workers = threads > 0 ? threads : (chunks > 1 ? defaultThreadCount() : 1);
  const std::size_t lowerValues = 9 * coarseRow_.size();

  // Chunk c streams its fine block columns and adds every term into its own sums (9
  // values per coarse lower block, column-major).
  const int* outer = A.outerIndexPtr();
  const double* values = A.valuePtr();
  forEachRangeInParallel(chunks, workers, [&](int firstChunk, int lastChunk) {
    for (int c = firstChunk; c < lastChunk; ++c) {
      std::vector<double>& sum = sums_[c];
      sum.assign(lowerValues, 0.0);
      for (int j = chunkBounds_[c]; j < chunkBounds_[c + 1]; ++j)
        for (int q = fineColumnStart_[j]; q < fineColumnStart_[j + 1]; ++q) {
          double f[2][9];  // f[0][3k + r] = A(3i + r, 3j + k) (masked), f[1] its transpose
          const int i = fineRow_[q];
          for (int k = 0; k < 3; ++k) {
            const double* column = values + outer[3 * j + k] + fineBlockOffset_[q];
            for (int r = 0; r < 3; ++r) {
              const bool free = !masked_ || (fineFree_[3 * j + k] && fineFree_[3 * i + r]);
              f[0][3 * k + r] = f[1][3 * r + k] = free ? column[r] : 0.0;
            }
          }
          const Block9 blocks[2] = {Eigen::Map<const Block9>(f[0]), Eigen::Map<const Block9>(f[1])};
          for (int t = termStart_[q]; t < termStart_[q + 1]; ++t) {
            const Term term = terms_[t];
            Eigen::Map<Block9>(sum.data() + 9 * static_cast<std::size_t>(term.target >> 1)) +=
                static_cast<double>(term.weight) * blocks[term.target & 1];
          }
        }
    }
  }, 1);

  // Add the chunks' sums in chunk order, symmetrize the diagonal blocks and write both
  // triangles of C.
  const int* cOuter = C.outerIndexPtr();
  double* cValues = C.valuePtr();
  forEachRangeInParallel(coarseNodes_, workers, [&](int firstColumn, int lastColumn) {
    for (int J = firstColumn; J < lastColumn; ++J)
      for (int b = coarseColumnStart_[J]; b < coarseColumnStart_[J + 1]; ++b) {
        double acc[9];  // acc[3k + r] = C(3I + r, 3J + k)
        for (int m = 0; m < 9; ++m) acc[m] = sums_[0][9 * static_cast<std::size_t>(b) + m];
        for (int c = 1; c < chunks; ++c)
          for (int m = 0; m < 9; ++m) acc[m] += sums_[c][9 * static_cast<std::size_t>(b) + m];
        const int I = coarseRow_[b];
        if (I == J) {  // exactly symmetric diagonal blocks
          for (int k = 0; k < 3; ++k)
            for (int r = 0; r < k; ++r) acc[3 * k + r] = acc[3 * r + k] = 0.5 * (acc[3 * k + r] + acc[3 * r + k]);
        }
        for (int k = 0; k < 3; ++k)
          for (int r = 0; r < 3; ++r) cValues[cOuter[3 * J + k] + lowerOffset_[b] + r] = acc[3 * k + r];
        if (I != J)  // C(3J + r, 3I + k) = C(3I + k, 3J + r)
          for (int k = 0; k < 3; ++k)
            for (int r = 0; r < 3; ++r) cValues[cOuter[3 * I + k] + mirrorOffset_[b] + r] = acc[3 * r + k];
      }
  }, 64);
}

}  // namespace softfit

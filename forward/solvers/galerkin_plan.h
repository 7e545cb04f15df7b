#pragma once
// The Galerkin product C = P^T A P of a multigrid level, precomputed once per pattern.
//
// A is a symmetric 3x3-block matrix (both triangles stored, 3x3-block columns with a
// diagonal block: hasBlockColumns) and P is a nodal prolongation (a scalar weight per
// fine node and coarse node) times a 0/1 diagonal per block (the free components of
// the fine node: prescribed dofs have zero rows). Every coarse block is then a weighted
// sum of fine blocks, C_IJ = sum_ij P_iI P_jJ M_i A_ij M_j (M: the free mask). The plan
// lists, for every fine block of A's lower triangle in storage order, the coarse blocks
// of C's lower triangle it adds to (as A_ij or A_ij^T, with the weight), so compute() is
// one pass over A's values adding weighted 3x3 blocks, with no symbolic work. Large
// plans split the fine columns into a fixed number of chunks with their own sums, added
// in chunk order (threaded, and the same bits for every thread count). Only A's lower
// triangle is read (as SymmetricProduct does); C is written in both triangles, exactly
// symmetric (its diagonal blocks symmetrized).
#include <cstdint>
#include <vector>

#include "forward/solvers/dirichlet_elimination.h"
#include "forward/types.h"

namespace softfit {

class GalerkinPlan {
 public:
  GalerkinPlan() = default;
  // A: the fine matrix (its structure; hasBlockColumns(A) must hold). nodal: fine nodes
  // x coarse nodes weights (trilinearProlongation). fixed: per fine dof, nonzero where
  // P's row is zero; nullptr: none.
  GalerkinPlan(const SparseMatrix& A, const SparseMatrix& nodal, const DofMask* fixed);

  // True when A has the layout a plan needs: hasBlockColumns and a diagonal block in
  // every block column.
  static bool supports(const SparseMatrix& A);

  bool empty() const { return coarseNodes_ == 0 && fineNodes_ == 0; }
  // True when A has the structure the plan was built for.
  bool matches(const SparseMatrix& A) const;
  // C = P^T A P. C receives the plan's pattern (allocated on the first call, values
  // overwritten afterwards). threads <= 0: defaultThreadCount() for large plans.
  void compute(const SparseMatrix& A, SparseMatrix& C, int threads = 0);
  // Stored terms (for tests and benchmarks).
  std::size_t termCount() const { return terms_.size(); }

 private:
  struct Term {
    std::int32_t target;  // 2 b + t: coarse lower block b gets weight * (t ? A_ij^T : A_ij)
    float weight;         // a power of 1/2: exact in float
  };
  int fineNodes_ = 0, coarseNodes_ = 0;
  bool masked_ = false;  // some fine dof is prescribed
  // Fine structure (to check matches()) and the fine lower blocks: block column j holds
  // blocks [fineColumnStart_[j], fineColumnStart_[j+1]), block q in block row
  // fineRow_[q] at offset fineBlockOffset_[q] of A's column 3j; its terms are
  // [termStart_[q], termStart_[q+1]).
  std::vector<int> fineOuter_, fineInner_;
  std::vector<int> fineColumnStart_, fineRow_, fineBlockOffset_, termStart_;
  std::vector<std::uint8_t> fineFree_;  // per fine dof: 1 free, 0 prescribed
  std::vector<Term> terms_;
  // Coarse lower blocks in block-column order: column J holds [coarseColumnStart_[J],
  // coarseColumnStart_[J+1]), block b in block row coarseRow_[b]; lowerOffset_[b]: its
  // offset in C's column 3J, mirrorOffset_[b]: block (J, I)'s offset in C's column 3I.
  std::vector<int> coarseColumnStart_, coarseRow_, lowerOffset_, mirrorOffset_;
  SparseMatrix pattern_;  // C's structure (zero values)
  std::vector<int> chunkBounds_;  // fine block columns [chunkBounds_[c], chunkBounds_[c+1]) per chunk
  std::vector<std::vector<double>> sums_;  // scratch per chunk: 9 values per coarse lower block
};

}  // namespace softfit

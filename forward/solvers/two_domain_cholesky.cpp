#include "forward/solvers/two_domain_cholesky.h"

#include <algorithm>
#include <stdexcept>

#include "forward/math/parallel_ranges.h"
#include "forward/math/worker_pool.h"
#include "forward/solvers/blas_threads.h"
#include "forward/solvers/cholmod_common.h"

extern "C" {
// LAPACK (OpenBLAS' own implementations): Cholesky of a dense SPD matrix, and U U^T of a
// triangular one.
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info);
void dlauum_(const char* uplo, const int* n, double* a, const int* lda, int* info);
// BLAS: triangular solve with many right-hand sides, and general product.
void dtrsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const double* alpha, const double* a, const int* lda, double* b, const int* ldb);
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta, double* c,
            const int* ldc);
}

namespace softfit {

struct TwoDomainCholesky::Domain {
  std::vector<int> dofs;  // K's rows: the interior dofs (in their fill-reducing order), then S's
  int interior = 0;
  CholmodCommon cholmod;
  cholmod_common& common = cholmod.common;
  cholmod_sparse* K = nullptr;  // lower triangle
  std::vector<int> valueIndex;  // K's k-th value is A.valuePtr()[valueIndex[k]]
  cholmod_factor* L = nullptr;
  MatX L22;  // the factor's separator block (lower)
  double flops = 0.0;
  // Workspace kept between calls (the second domain's allocations would come from its
  // worker thread's malloc arena, which gives memory back to the system: page faults).
  MatX reversed, rhs;
  VecX below;  // a supernode's rows below its interior columns x right-hand sides
  int maxBelow = 0;  // the most such rows of any interior supernode

  // The interior part of L's substitutions, in place on rhs (K's rows x columns), by
  // supernodes: forward, L11 z = b_interior, leaving -L21 z in the separator rows (which
  // must hold 0 before); back, L11^T x = z - L21^T x_S with x_S in the separator rows.
  // L22 (S's own block) is not touched: the separator is solved densely.
  void forwardInterior();
  void backInterior();
  // Per supernode with interior columns: its first column, how many of its columns are
  // interior, its row count and rows, and where its values start in L->x (as CHOLMOD
  // stores them; the symbolic factor has no values yet).
  template <typename F>
  void forEachInteriorSupernode(bool reverse, const F& f);

  Domain() = default;
  Domain(const Domain&) = delete;
  Domain& operator=(const Domain&) = delete;
  ~Domain() {
    cholmod_free_factor(&L, &common);
    cholmod_free_sparse(&K, &common);
  }
};

template <typename F>
void TwoDomainCholesky::Domain::forEachInteriorSupernode(bool reverse, const F& f) {
  const int* super = static_cast<const int*>(L->super);
  const int* pi = static_cast<const int*>(L->pi);
  const int* px = static_cast<const int*>(L->px);
  const int* rows = static_cast<const int*>(L->s);
  const int count = static_cast<int>(L->nsuper);
  for (int k = 0; k < count; ++k) {
    const int q = reverse ? count - 1 - k : k;
    const int first = super[q];
    if (first >= interior) continue;  // S's own supernodes
    // A supernode may hold the last interior columns and the first of S's: its interior
    // part is its leading columns, and all rows below them are S's or later.
    const int columns = std::min(super[q + 1], interior) - first;
    f(first, columns, pi[q + 1] - pi[q], rows + pi[q], px[q]);
  }
}

void TwoDomainCholesky::Domain::forwardInterior() {
  const int n = static_cast<int>(rhs.rows()), nrhs = static_cast<int>(rhs.cols());
  const double one = 1.0, zero = 0.0;
  const double* Lx = static_cast<const double*>(L->x);
  const Eigen::Index workspace = static_cast<Eigen::Index>(maxBelow) * nrhs;
  if (below.size() < workspace) below.resize(workspace);
  forEachInteriorSupernode(false, [&](int first, int columns, int nsrow, const int* rows, int offset) {
    const double* Lq = Lx + offset;
    const int nbelow = nsrow - columns;
    // Columns that are still zero on this supernode's rows stay zero through it (a
    // right-hand side that is zero outside part of the domain reaches only the supernodes
    // above its rows): each run of the other columns in one trsm and one gemm.
    const auto zeroHere = [&](int c) { return rhs.col(c).segment(first, columns).isZero(0.0); };
    for (int begin = 0; begin < nrhs;) {
      if (zeroHere(begin)) {
        ++begin;
        continue;
      }
      int end = begin + 1;
      while (end < nrhs && !zeroHere(end)) ++end;
      const int width = end - begin;
      double* X = rhs.data() + first + static_cast<Eigen::Index>(begin) * n;
      dtrsm_("L", "L", "N", "N", &columns, &width, &one, Lq, &nsrow, X, &n);
      if (nbelow > 0) {
        double* E = below.data();  // nbelow x width
        dgemm_("N", "N", &nbelow, &width, &columns, &one, Lq + columns, &nsrow, X, &n, &zero, E, &nbelow);
        for (int c = 0; c < width; ++c)
          for (int i = 0; i < nbelow; ++i) rhs(rows[columns + i], begin + c) -= E[i + c * nbelow];
      }
      begin = end;
    }
  });
}

void TwoDomainCholesky::Domain::backInterior() {
  const int n = static_cast<int>(rhs.rows()), nrhs = static_cast<int>(rhs.cols());
  const double one = 1.0, minusOne = -1.0;
  const double* Lx = static_cast<const double*>(L->x);
  const Eigen::Index workspace = static_cast<Eigen::Index>(maxBelow) * nrhs;
  if (below.size() < workspace) below.resize(workspace);
  forEachInteriorSupernode(true, [&](int first, int columns, int nsrow, const int* rows, int offset) {
    const double* Lq = Lx + offset;
    double* X = rhs.data() + first;
    const int nbelow = nsrow - columns;
    if (nbelow > 0) {
      double* E = below.data();  // nbelow x nrhs
      for (int c = 0; c < nrhs; ++c)
        for (int i = 0; i < nbelow; ++i) E[i + c * nbelow] = rhs(rows[columns + i], c);
      dgemm_("T", "N", &columns, &nrhs, &nbelow, &minusOne, Lq + columns, &nsrow, E, &nbelow, &one, X, &n);
    }
    dtrsm_("L", "L", "T", "N", &columns, &nrhs, &one, Lq, &nsrow, X, &n);
  });
}

struct TwoDomainCholesky::Impl {
  Eigen::Index n = 0, nnz = 0;
  std::vector<int> separator;      // S's dofs
  std::vector<int> decoupled;      // dofs solved by their diagonal
  std::vector<int> decoupledIndex; // value index of their diagonal
  VecX decoupledPivot;
  std::vector<std::pair<int, int>> separatorValues;  // (lower-triangle position in S x S, value index)
  Domain domain[2];
  MatX sigma;  // the separator's Schur complement, then its Cholesky factor (lower)
  MatX separatorRhs;  // solve workspace
};

namespace {

// Runs f(0) and f(1), on two threads when there are.
template <typename F>
void forBothDomains(const F& f) {
  if (defaultThreadCount() > 1)
    runOnWorkers(2, [&](int part) { f(part); });
  else
    for (int part = 0; part < 2; ++part) f(part);
}

// The lower triangle of A's principal submatrix on `dofs` (in that order), compressed by
// columns with rows sorted: column c holds rows[p[c]] .. rows[p[c+1]-1] (>= c), whose
// values are A.valuePtr()[valueIndex[k]]. A stores both triangles.
struct LowerSubmatrix {
  std::vector<int> p{0}, rows, valueIndex;
};
LowerSubmatrix lowerSubmatrix(const SparseMatrix& A, const std::vector<int>& dofs) {
  std::vector<int> local(A.rows(), -1);
  for (std::size_t k = 0; k < dofs.size(); ++k) local[dofs[k]] = static_cast<int>(k);
  LowerSubmatrix out;
  std::vector<std::pair<int, int>> column;  // (local row, value index)
  for (int c = 0; c < static_cast<int>(dofs.size()); ++c) {
    column.clear();
    for (int k = A.outerIndexPtr()[dofs[c]]; k < A.outerIndexPtr()[dofs[c] + 1]; ++k) {
      const int r = local[A.innerIndexPtr()[k]];
      if (r >= c) column.emplace_back(r, k);
    }
    std::sort(column.begin(), column.end());
    for (const auto& [r, k] : column) {
      out.rows.push_back(r);
      out.valueIndex.push_back(k);
    }
    out.p.push_back(static_cast<int>(out.rows.size()));
  }
  return out;
}

// A CHOLMOD view of a pattern (n x n, compressed by columns, rows sorted) held elsewhere.
cholmod_sparse patternView(int n, std::vector<int>& p, std::vector<int>& rows, int stype) {
  cholmod_sparse view{};
  view.nrow = view.ncol = n;
  view.nzmax = rows.size();
  view.p = p.data();
  view.i = rows.data();
  view.stype = stype;
  view.itype = CHOLMOD_INT;
  view.xtype = CHOLMOD_PATTERN;
  view.dtype = CHOLMOD_DOUBLE;
  view.sorted = 1;
  view.packed = 1;
  return view;
}

// The value index of A(row, col), or -1 when it is not stored.
int valueIndex(const SparseMatrix& A, int row, int col) {
  const int* begin = A.innerIndexPtr() + A.outerIndexPtr()[col];
  const int* end = A.innerIndexPtr() + A.outerIndexPtr()[col + 1];
  const int* it = std::lower_bound(begin, end, row);
  return it != end && *it == row ? static_cast<int>(it - A.innerIndexPtr()) : -1;
}

}  // namespace

TwoDomainCholesky::TwoDomainCholesky() : impl_(std::make_unique<Impl>()) {}
TwoDomainCholesky::~TwoDomainCholesky() = default;

int TwoDomainCholesky::separatorSize() const { return static_cast<int>(impl_->separator.size()); }
double TwoDomainCholesky::domainFlops(int d) const { return impl_->domain[d].flops; }
int TwoDomainCholesky::interiorSize(int d) const { return impl_->domain[d].interior; }

bool TwoDomainCholesky::analyze(const SparseMatrix& A, int blockSize, const DofMask& decoupled) {
  analyzed_ = factorized_ = false;
  impl_ = std::make_unique<Impl>();
  Impl& m = *impl_;
  const int n = static_cast<int>(A.rows());
  if (A.cols() != n || blockSize < 1 || n % blockSize != 0 || static_cast<int>(decoupled.size()) != n)
    throw std::logic_error("TwoDomainCholesky::analyze: square matrix, whole blocks and one flag per dof expected");
  if (!A.isCompressed()) throw std::logic_error("TwoDomainCholesky::analyze: compressed matrix expected");
  m.n = n;
  m.nnz = A.nonZeros();
  const int nodes = n / blockSize;

  // The graph of the nodes with a coupled dof. Nodes whose dofs are all decoupled are left
  // out: as isolated vertices they would count in METIS' balance and leave the domains
  // unequal (on the bench face, 9,360 against 4,293 interior dofs and 2x the time).
  std::vector<int> vertex(nodes, -1), vertexNode;
  for (int j = 0; j < n; ++j)
    if (!decoupled[j] && vertex[j / blockSize] < 0) {
      vertex[j / blockSize] = static_cast<int>(vertexNode.size());
      vertexNode.push_back(j / blockSize);
    }
  std::vector<std::vector<int>> adjacent(vertexNode.size());
  for (int j = 0; j < n; ++j) {
    if (decoupled[j]) continue;
    for (SparseMatrix::InnerIterator it(A, j); it; ++it) {
      const int i = static_cast<int>(it.row());
      if (!decoupled[i] && i / blockSize != j / blockSize) adjacent[vertex[j / blockSize]].push_back(vertex[i / blockSize]);
    }
  }
  std::vector<int> p{0}, rows;
  for (auto& a : adjacent) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    rows.insert(rows.end(), a.begin(), a.end());
    p.push_back(static_cast<int>(rows.size()));
  }
  const int vertices = static_cast<int>(vertexNode.size());
  if (vertices < 3) return false;
  // Symmetric (stype 1): METIS bisects this graph. Unsymmetric (0), CHOLMOD would bisect
  // the graph of A A^T, this graph squared, whose separators are two node layers thick
  // (232 nodes on the bench face against 116).
  cholmod_sparse graph = patternView(vertices, p, rows, 1);
  std::vector<int> vertexPart(vertices, 0);
  Domain& first = m.domain[0];
  if (cholmod_bisect(&graph, nullptr, 0, 1, vertexPart.data(), &first.common) < 0) return false;
  std::vector<int> part(nodes, -1);  // -1: all its dofs decoupled
  for (int v = 0; v < vertices; ++v) part[vertexNode[v]] = vertexPart[v];

  std::vector<int> interior[2];
  for (int i = 0; i < n; ++i) {
    if (decoupled[i]) {
      m.decoupled.push_back(i);
      const int k = valueIndex(A, i, i);
      if (k < 0) throw std::logic_error("TwoDomainCholesky::analyze: a decoupled dof without a diagonal entry");
      m.decoupledIndex.push_back(k);
    } else if (part[i / blockSize] == 2) {
      m.separator.push_back(i);
    } else {
      interior[part[i / blockSize]].push_back(i);
    }
  }
  if (interior[0].empty() || interior[1].empty() || m.separator.empty()) return false;

  // Each domain: its interior in CHOLMOD's fill-reducing order, then S. The orderings one
  // after the other: METIS keeps its random generator in globals, so two at once draw
  // from one sequence in a timing-dependent order (other orderings, other bits: 1 run in
  // 10 on the test lattice).
  for (int d = 0; d < 2; ++d) {
    Domain& dom = m.domain[d];
    const std::vector<int>& in = interior[d];
    cholmod_common& c = dom.common;
    LowerSubmatrix pattern = lowerSubmatrix(A, in);
    cholmod_sparse view = patternView(static_cast<int>(in.size()), pattern.p, pattern.rows, -1);
    c.nmethods = 2;
    c.method[0].ordering = CHOLMOD_AMD;
    c.method[1].ordering = CHOLMOD_METIS;
    cholmod_factor* order = cholmod_analyze(&view, &c);
    if (!order) return false;
    const int* perm = static_cast<const int*>(order->Perm);
    for (std::size_t k = 0; k < in.size(); ++k) dom.dofs.push_back(in[perm[k]]);
    cholmod_free_factor(&order, &c);
  }
  // K's lower triangle and where its values come from; CHOLMOD's symbolic analysis in that
  // (natural) order. The two domains on their own threads (each with its own
  // cholmod_common).
  bool ok[2] = {false, false};
  forBothDomains([&](int d) {
    const SerialOpenMpScope serialCholmodLoops;  // as in factorize()
    Domain& dom = m.domain[d];
    const std::vector<int>& in = interior[d];
    cholmod_common& c = dom.common;
    dom.interior = static_cast<int>(in.size());
    dom.dofs.insert(dom.dofs.end(), m.separator.begin(), m.separator.end());
    const int size = static_cast<int>(dom.dofs.size());
    LowerSubmatrix k = lowerSubmatrix(A, dom.dofs);
    dom.K = cholmod_allocate_sparse(size, size, k.rows.size(), 1, 1, -1, CHOLMOD_REAL, &c);
    if (!dom.K) return;
    std::copy(k.p.begin(), k.p.end(), static_cast<int*>(dom.K->p));
    std::copy(k.rows.begin(), k.rows.end(), static_cast<int*>(dom.K->i));
    dom.valueIndex = std::move(k.valueIndex);
    c.nmethods = 1;
    c.method[0].ordering = CHOLMOD_NATURAL;
    c.postorder = 0;  // keep S last
    c.supernodal = CHOLMOD_SUPERNODAL;
    dom.L = cholmod_analyze(dom.K, &c);
    if (!dom.L) return;
    dom.flops = c.fl;
    // The substitutions' workspace: the most rows below an interior supernode's interior
    // columns.
    dom.forEachInteriorSupernode(false, [&](int, int columns, int nsrow, const int*, int) {
      dom.maxBelow = std::max(dom.maxBelow, nsrow - columns);
    });
    ok[d] = true;
  });
  if (!ok[0] || !ok[1]) return false;
  // H_SS's stored entries, for Sigma = T_A + T_B - H_SS.
  const int s = static_cast<int>(m.separator.size());
  const LowerSubmatrix separator = lowerSubmatrix(A, m.separator);
  for (int c = 0; c < s; ++c)
    for (int k = separator.p[c]; k < separator.p[c + 1]; ++k)
      m.separatorValues.emplace_back(separator.rows[k] + c * s, separator.valueIndex[k]);
  analyzed_ = true;
  return true;
}

bool TwoDomainCholesky::factorize(const SparseMatrix& A) {
  Impl& m = *impl_;
  if (!analyzed_) throw std::logic_error("TwoDomainCholesky::factorize called before a successful analyze()");
  if (A.rows() != m.n || A.nonZeros() != m.nnz)
    throw std::logic_error("TwoDomainCholesky::factorize: not the analyzed pattern");
  factorized_ = false;
  m.decoupledPivot.resize(static_cast<Eigen::Index>(m.decoupled.size()));
  for (std::size_t k = 0; k < m.decoupled.size(); ++k) {
    m.decoupledPivot[k] = A.valuePtr()[m.decoupledIndex[k]];
    if (!(m.decoupledPivot[k] > 0.0)) return false;
  }
  const int s = static_cast<int>(m.separator.size());
  bool ok[2] = {false, false};
  {
    const BlasThreadScope blas(1);
    forBothDomains([&](int d) {
      // CHOLMOD's own OpenMP loops on this thread (max-active-levels is per thread).
      const SerialOpenMpScope serialCholmodLoops;
      Domain& dom = m.domain[d];
      double* x = static_cast<double*>(dom.K->x);
      for (std::size_t k = 0; k < dom.valueIndex.size(); ++k) x[k] = A.valuePtr()[dom.valueIndex[k]];
      if (!cholmod_factorize(dom.K, dom.L, &dom.common) || dom.common.status != CHOLMOD_OK ||
          dom.L->minor < dom.L->n)
        return;
      // L22 from the supernodes holding S's columns (S is last: their rows are all in S).
      dom.L22.setZero(s, s);
      const int* super = static_cast<const int*>(dom.L->super);
      const int* pi = static_cast<const int*>(dom.L->pi);
      const int* px = static_cast<const int*>(dom.L->px);
      const int* rows = static_cast<const int*>(dom.L->s);
      const double* lx = static_cast<const double*>(dom.L->x);
      for (std::size_t sn = 0; sn < dom.L->nsuper; ++sn) {
        const int k1 = super[sn], k2 = super[sn + 1];
        if (k2 <= dom.interior) continue;
        const int nsrow = pi[sn + 1] - pi[sn];
        for (int j = std::max(k1, dom.interior); j < k2; ++j)
          for (int i = j - k1; i < nsrow; ++i)
            dom.L22(rows[pi[sn] + i] - dom.interior, j - dom.interior) = lx[px[sn] + i + (j - k1) * nsrow];
      }
      // T = L22 L22^T with LAPACK's dlauum, which forms U U^T: U = J L22 J (J reverses).
      dom.reversed = dom.L22.reverse();
      int info = 0;
      dlauum_("U", &s, dom.reversed.data(), &s, &info);
      ok[d] = info == 0;
    });
    if (!ok[0] || !ok[1]) return false;
    m.sigma.setZero(s, s);
    for (int d = 0; d < 2; ++d) m.sigma.triangularView<Eigen::Lower>() += m.domain[d].reversed.reverse();
    for (const auto& [position, k] : m.separatorValues) m.sigma.data()[position] -= A.valuePtr()[k];
    int info = 0;
    dpotrf_("L", &s, m.sigma.data(), &s, &info);
    if (info != 0) return false;
  }
  factorized_ = true;
  return true;
}

void TwoDomainCholesky::solveInPlace(MatX& X) const {
  Impl& m = *impl_;  // the domains' workspace
  if (!factorized_) throw std::logic_error("TwoDomainCholesky::solveInPlace called without a valid factorization");
  if (X.rows() != m.n) throw std::logic_error("TwoDomainCholesky::solveInPlace: wrong number of rows");
  // Every row of B (= X on entry) is read before that row of X is written.
  const MatX& B = X;
  const Eigen::Index columns = B.cols();
  const int s = static_cast<int>(m.separator.size());
  for (std::size_t k = 0; k < m.decoupled.size(); ++k)
    X.row(m.decoupled[k]) /= m.decoupledPivot[static_cast<Eigen::Index>(k)];
  // Forward, per domain: L11 z = b_interior, and -L21 z = -H_SI H_II^-1 b_interior in
  // the separator rows.
  const BlasThreadScope blas(1);
  forBothDomains([&](int d) {
    Domain& dom = m.domain[d];
    dom.rhs.resize(static_cast<Eigen::Index>(dom.dofs.size()), columns);
    for (int k = 0; k < dom.interior; ++k) dom.rhs.row(k) = B.row(dom.dofs[k]);
    dom.rhs.bottomRows(s).setZero();
    dom.forwardInterior();
  });
  MatX& xs = m.separatorRhs;
  xs.resize(s, columns);
  for (int k = 0; k < s; ++k) xs.row(k) = B.row(m.separator[k]);
  xs += m.domain[0].rhs.bottomRows(s) + m.domain[1].rhs.bottomRows(s);
  m.sigma.triangularView<Eigen::Lower>().solveInPlace(xs);
  m.sigma.triangularView<Eigen::Lower>().transpose().solveInPlace(xs);
  for (int k = 0; k < s; ++k) X.row(m.separator[k]) = xs.row(k);
  // Back: L11^T x_interior = z - L21^T x_S.
  forBothDomains([&](int d) {
    Domain& dom = m.domain[d];
    dom.rhs.bottomRows(s) = xs;
    dom.backInterior();
    for (int k = 0; k < dom.interior; ++k) X.row(dom.dofs[k]) = dom.rhs.row(k);
  });
}

}  // namespace softfit

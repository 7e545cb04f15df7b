#pragma once
// Geometric multigrid V-cycle for SPD systems on the nodes of a regular lattice (the
// cut-cell grid), used as a PCG preconditioner (docs/theory.rst, section 4).
//
// Levels: the fine nodes' integer lattice coordinates are coarsened by 2 per axis; the
// prolongation P (level l+1 -> l) is trilinear interpolation, per displacement
// component, with the rows of prescribed (Dirichlet) fine dofs zero, and the coarse
// operators are Galerkin products A_{l+1} = P^T A_l P (cut cells, the mass term and the
// Dirichlet elimination carry over without geometry). Coarse dofs without a free fine
// dof get an identity row. The coarsest level is factorized (sparse Cholesky).
// Smoother: Chebyshev polynomial of the 3x3 block-Jacobi preconditioned operator,
// the same polynomial before and after the coarse correction, so the V-cycle is a fixed
// symmetric positive definite operator (for PCG) as long as the eigenvalue bound holds.
//
// The coarse levels only need to be close to the current matrix: setFineMatrix()
// swaps in a new fine matrix (same pattern) and its block diagonal and keeps the rest;
// rebuild() recomputes everything (Galerkin products, bounds, coarsest factorization).
// The Galerkin products of 3x3-block matrices run a GalerkinPlan (galerkin_plan.h),
// built at the first rebuild() and again only when a level's matrix structure changes;
// other matrices use a sparse-matrix product. The eigenvalue bounds after the first
// come from a few power iterations warm-started from the previous estimate's vector.
// A part of A that changes a lot from step to step but has few entries (ground contact
// springs) can be passed as a `correction`: its Galerkin projections are kept up to
// date on every level (the coarsest refactorized), so the coarse levels see it.
#include <memory>
#include <vector>

#include <Eigen/SparseCholesky>

#include "forward/solvers/cholesky_solver.h"
#include "forward/solvers/dirichlet_elimination.h"
#include "forward/solvers/symmetric_product.h"

namespace softfit {

struct MultigridOptions {
  int coarsestMaxDofs = 800;  // factorize the first level at or below this size
  int maxLevels = 10;
  int smootherDegree = 2;          // Chebyshev degree of each pre-/post-smoothing
  double smootherLowerRatio = 0.1; // smoothed interval [ratio * upper, upper] of D^-1 A
  double eigenvalueSafety = 1.15;  // upper = safety * power-iteration estimate
  int powerIterations = 15;      // first estimate of a level (fixed start vector)
  int warmPowerIterations = 5;   // later ones, from the previous estimate's vector
  int threads = 0;  // products on large levels; <= 0: hardware concurrency
};

// Trilinear interpolation from the lattice coarsened by 2 to the given nodes (one row
// per node, one column per coarse node; weights 1, 1/2, 1/4, 1/8). coarse receives the
// coarse nodes' lattice coordinates (coarse node c sits at fine coordinate 2 c), in
// lattice order (z, then y, then x).
SparseMatrix trilinearProlongation(const std::vector<Eigen::Vector3i>& nodes, std::vector<Eigen::Vector3i>& coarse);

class MultigridPreconditioner {
 public:
  // nodeCoordinates: integer lattice coordinates of every node (3 dofs per node, in
  // order); fixed: prescribed dofs (their rows of A must be identity-eliminated).
  MultigridPreconditioner(const std::vector<Eigen::Vector3i>& nodeCoordinates, const DofMask& fixed,
                          const MultigridOptions& options = {});
  ~MultigridPreconditioner();

  // Builds every level from A (kept by reference until the next setFineMatrix/rebuild:
  // A must outlive every apply/multiply until then).
  // Returns false when the coarsest matrix could not be factorized. correction: the
  // part of A passed to setFineMatrix as its correction (or nullptr).
  bool rebuild(const SparseMatrix& A, const SparseMatrix* correction = nullptr);
  // Replaces the fine matrix (same pattern; kept by reference) and its smoother
  // diagonal; coarse levels stay as built by the last rebuild(), except that with a
  // correction (a part of A with few entries, inside A's pattern) the coarse levels
  // swap the projection of the rebuild's correction for this one's. Returns false when
  // the coarsest matrix could not be refactorized (then rebuild()).
  bool setFineMatrix(const SparseMatrix& A, const SparseMatrix* correction = nullptr);
  bool built() const { return built_; }

  // z = B r, one V-cycle.
  void apply(const VecX& r, VecX& z) const;
  // y = A x with the fine matrix (threaded, deterministic).
  void multiply(const VecX& x, VecX& y) const;

  const DofMask& fixed() const { return fixed_; }
  int levelCount() const { return static_cast<int>(levels_.size()); }
  int levelDofs(int level) const;
  int rebuilds() const { return rebuilds_; }

 private:
  struct Level;
  void smooth(const Level& level, const VecX& b, VecX& x, bool zeroGuess) const;
  void cycle(int l, const VecX& b, VecX& x) const;
  void blockDiagonal(Level& level) const;
  void estimateBounds(Level& level) const;
  bool factorizeCoarsest(const SparseMatrix& A);
  // Projects the correction to every coarse level and swaps it in for the last one.
  // Returns false when a projected entry lies outside a level's pattern.
  bool updateCorrection(const SparseMatrix& correction, bool applyToLevels);

  MultigridOptions options_;
  DofMask fixed_;
  std::vector<std::unique_ptr<Level>> levels_;
  // Simplicial (no BLAS: CHOLMOD's supernodal solves wake OpenBLAS threads that spin
  // against the smoother's threads), small anyway.
  Eigen::SimplicialLLT<SparseMatrix, Eigen::Lower> coarsest_;
  Eigen::Index coarsestRows_ = -1, coarsestNonZeros_ = -1;
  bool built_ = false;
  Eigen::Index fineNonZeros_ = -1;
  int rebuilds_ = 0;
};

// Conjugate gradients on A x = b with A the preconditioner's fine matrix and one
// V-cycle per iteration; x holds the initial guess. Stops when ||r|| <= tolerance ||b||,
// or with breakdown set when r^T B r <= 0 (eigenvalue bound too small: rebuild).
PcgResult preconditionedConjugateGradient(const MultigridPreconditioner& preconditioner, const VecX& b, VecX& x,
                                          double tolerance, int maxIterations);

}  // namespace softfit

#pragma once
// Gradient-based optimizers for parameter fits: L-BFGS and L-BFGS-B (LBFGS++),
// Barzilai-Borwein gradient descent (thesis) and Ceres' GradientProblemSolver, behind
// one interface, with stopping rules, per-iteration records and multi-start.
#include <functional>
#include <string>
#include <vector>

#include "forward/types.h"
#include "optim/hessian_preconditioner.h"

namespace softfit {

// f(q, grad) -> value; fills grad. May throw SolveError (failed forward solve).
using ObjectiveFunction = std::function<double(const VecX& q, VecX& gradient)>;

// GradientOnlyLbfgs: L-BFGS whose line search uses only directional derivatives (for
// costs that jump where the discretization changes, e.g. the grid SDF point cost); its
// result is the last iterate, not the lowest cost seen.
enum class OptimizerKind { Lbfgs, LbfgsB, BarzilaiBorwein, Ceres, GradientOnlyLbfgs };
OptimizerKind parseOptimizerKind(const std::string& name, const std::string& field = "optimizer");
std::string optimizerKindName(OptimizerKind kind);

struct OptimizerOptions {
  OptimizerKind kind = OptimizerKind::Lbfgs;
  int maxIterations = 100;
  double gradientTolerance = 1e-8;       // on the infinity norm of the gradient (absolute)
  double relativeCostTolerance = 1e-12;  // stop when |f_k - f_{k-1}| <= tol |f_k| (not GradientOnlyLbfgs)
  double stepTolerance = 1e-7;           // GradientOnlyLbfgs: stop when a step's infinity norm is below
  int memory = 6;                        // L-BFGS history
  // L-BFGS(-B): length (internal coordinates, Euclidean) of the first line-search trial
  // step along -gradient. LBFGS++ tries length 1, which can jump a fit out of the basin
  // (e.g. lift the ground plane off the body, where the cost is flat but lower);
  // later steps use the quasi-Newton scaling and are not affected.
  double initialStep = 0.1;
  // BarzilaiBorwein: length (internal coordinates, Euclidean) of the first step along
  // -gradient; 0 = the thesis' conservative start, 0.01 in the largest coordinate.
  double firstStep = 0.0;
  VecX lowerBounds, upperBounds;         // L-BFGS-B only (internal coordinates); empty = unbounded
  // Run in the coordinates of a finite-difference Hessian at q0 (hessian_preconditioner.h):
  // n more evaluations first; the gradient tolerance then applies to the preconditioned
  // gradient T^T g. Not with L-BFGS-B (its bounds are per coordinate). Each stage (see
  // HessianPreconditionerOptions::refreshEvery) starts with the Newton step.
  bool hessianPreconditioner = false;
  HessianPreconditionerOptions hessian;
};

struct IterationRecord {
  int iteration = 0;    // 0 = initial point
  int evaluations = 0;  // objective evaluations so far
  double cost = 0.0;
  double gradientNorm = 0.0;  // infinity norm
  VecX point;           // internal coordinates
  double seconds = 0.0;
};

struct OptimizationResult {
  VecX point;           // best point found (internal coordinates)
  double cost = 0.0;
  int iterations = 0;
  int evaluations = 0;
  int residualEvaluations = 0;  // forward-only runs for Gauss-Newton Hessians (not in evaluations)
  bool converged = false;
  bool solveFailed = false;  // a forward solve failed during the search (see stopReason)
  std::string stopReason;
  std::vector<IterationRecord> history;
};

// Called after every accepted iteration (and for the initial point).
using IterationCallback = std::function<void(const IterationRecord&)>;

// Minimizes from q0. A SolveError thrown by the objective stops the optimization
// cleanly: the result holds the best point so far and the reason.
OptimizationResult minimize(const ObjectiveFunction& f, const VecX& q0, const OptimizerOptions& options,
                            const IterationCallback& onIteration = {});

}  // namespace softfit

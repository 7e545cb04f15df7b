#pragma once
// Multi-target fit of the muscle geometry matrix S shared by all targets
// (docs/theory.rst, section 6):
// block-coordinate alternation of activation solves (S fixed, one per target) and an
// S-solve (activations and jaws fixed) minimizing
//   sum_t L_t(x_t(S)) + w_s/2 ||S - S0||^2
// over S with rows on the probability simplex, with the regularization weights
// decreasing from round to round.
//
// S-solve: spectral projected gradient (Birgin, Martinez, Raydan 2000) on the product of
// row simplices (each row restricted to its allowed entries), with the Euclidean
// projection (MuscleGeometry::projectToSimplex) and a non-monotone Armijo search. We
// chose it over a softmax parametrization because it represents the exact zeros and
// ones of containment-initialized rows (softmax needs infinite logits for them) and
// keeps the gradient in S itself, which is what the adjoint returns (dL/dS_ij =
// dL/da_i . a_j).
#include <functional>
#include <vector>

#include "face/activation_fit.h"

namespace softfit::face {

struct GeometryFitOptions {
  ActivationFitOptions activation;
  int rounds = 3;
  double regularizationDecay = 0.3;  // w_a, w_v and w_s are multiplied by this per round
  int geometryIterations = 25;       // SPG iterations per S-solve
};

struct GeometryFitRound {
  int round = 0;
  double meanError = 0.0;          // over all targets, after the round's S-solve
  double geometryObjective = 0.0;  // sum of data terms + S regularizer
  int invertedTets = 0;            // over all targets
  int geometryIterations = 0;
  double seconds = 0.0;
};

struct GeometryFitResult {
  MuscleGeometry geometry;
  std::vector<Expression> expressions;  // per target
  std::vector<VecX> positions;          // per target
  std::vector<double> meanErrors;       // per target, final
  std::vector<GeometryFitRound> history;
};

using GeometryFitCallback = std::function<void(const GeometryFitRound&)>;

GeometryFitResult fitGeometry(const FaceModel& model, const MuscleGeometry& initial,
                              const std::vector<FaceTarget>& targets, const GeometryFitOptions& options,
                              const GeometryFitCallback& onRound = {});

// The S-solve objective sum_t L_t + w_s/2 ||S - S0||^2 (and its gradient) for fixed
// expressions; `geometry` is the working copy whose values are set at each evaluation.
class GeometryObjective {
 public:
  GeometryObjective(FaceSolver& solver, MuscleGeometry& geometry, const std::vector<FaceTarget>& targets,
                    const std::vector<Expression>& expressions, VecX reference, double weight);
  double evaluate(const VecX& values, VecX* gradient);
  const std::vector<VecX>& positions() const { return positions_; }

 private:
  FaceSolver& solver_;
  MuscleGeometry& geometry_;
  const std::vector<FaceTarget>& targets_;
  const std::vector<Expression>& expressions_;
  VecX reference_;
  double weight_;
  std::vector<VecX> positions_;
};

// Spectral projected gradient on the row simplices; returns the iterations used.
int minimizeOnSimplices(GeometryObjective& objective, const MuscleGeometry& geometry, VecX& values,
                        int maxIterations, double& value);

}  // namespace softfit::face

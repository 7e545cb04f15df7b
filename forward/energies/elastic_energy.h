#pragma once
// Elastic energy sum_e sum_q w_q Psi(F_q) over the shared element abstraction, with
// per-element Lame parameters. With element rotations set (warped-stiffness
// corotation, thesis), each element sees R_e^T F instead of F.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "forward/element.h"
#include "forward/materials/material.h"
#include "forward/energies/rotated_stiffness_gather.h"
#include "forward/math/psd_projection.h"
#include "forward/solvers/block_sparse_pattern.h"

namespace softfit {

// Rest stiffness of one element, sum_q w_q B^T C B with C the small-strain tensor of
// `linear` (its first Piola derivative at F = I): the matrix ElasticEnergy caches for
// warped corotation and the GPU Newmark model packs (cuda/packed_newmark_model_builder).
MatX restElementStiffness(const Element& el, const Material& linear, const LameParameters& parameters);

class ElasticEnergy {
 public:
  ElasticEnergy(std::vector<Element> elements, MaterialModel model, std::vector<LameParameters> parameters);

  const std::vector<Element>& elements() const { return elements_; }
  const std::vector<LameParameters>& parameters() const { return parameters_; }
  void setParameters(std::vector<LameParameters> parameters);
  MaterialModel model() const { return model_; }
  const Material& material() const { return *material_; }
  bool usesElementRotations() const { return model_ == MaterialModel::WarpedCorotated; }

  // Warped corotation: R_e = polar(volume-averaged F_e(x)), frozen until the next call.
  void updateRotations(const VecX& x);
  const std::vector<Mat3>& rotations() const { return rotations_; }

  // Element loops (energy, gradient, Hessian) run on `threads` threads (0 = all hardware
  // threads): elements are computed in parallel and summed in element order, so results
  // are bit-identical for every thread count.
  void setThreads(int threads) { threads_ = threads; }
  int threads() const { return threads_; }

  // Looks up where every element block lands in `pattern` once, so Hessian assembly into
  // a matrix of that pattern (checked by fingerprint) needs no searches. Assembly into
  // any other pattern still works, with a search per block.
  void cacheBlockPositions(const BlockSparsePattern& pattern);

  double energy(const VecX& x) const;
  void addGradient(const VecX& x, VecX& gradient) const;
  // energy(x), and its gradient added to `gradient`, in one pass over the elements.
  double energyAndAddGradient(const VecX& x, VecX& gradient) const;
  // Adds the element Hessians (each eigenvalue-filtered with `filter`) into H.
  void addHessian(const VecX& x, BlockAssembler& H, EigenvalueFilter filter = EigenvalueFilter::None,
                  double filterEpsilon = 0.0) const;
  // Element Hessian (3n x 3n, node-major ordering) without filtering.
  MatX elementHessian(int e, const VecX& x) const;
  // Volume-averaged deformation gradient of element e.
  Mat3 averageDeformationGradient(int e, const VecX& x) const;

  // ---- Rayleigh damping stiffness K_w: linear elasticity (same Lame parameters) in a
  // per-element frame R_e; identity for the linear material, polar(F_e(xFrame))
  // otherwise, so damping does not resist rigid rotation (thesis-style warping). ----
  std::vector<Mat3> dampingFrames(const VecX& xFrame) const;
  void addDampingStiffness(const std::vector<Mat3>& frames, BlockAssembler& K) const;

  // ---- Adjoint support (elastic_energy_adjoint.cpp). `lambda` is an adjoint vector;
  // every function accumulates `scale` times the stated derivative. ----
  // d/d(mu_e), d/d(lambda_e) of lambda^T gradient(x), per element.
  void addParameterAdjoint(const VecX& x, const VecX& lambda, double scale, VecX& muBar, VecX& lambdaBar) const;
  // Warped corotation: d/d(xFrame) of lambda^T gradient(x; R(xFrame)). No-op otherwise.
  void addRotationAdjoint(const VecX& x, const VecX& lambda, const VecX& xFrame, double scale, VecX& frameBar) const;
  // d/d(mu_e, lambda_e) of lambda^T K_w d, with frames from dampingFrames.
  void addDampingParameterAdjoint(const std::vector<Mat3>& frames, const VecX& d, const VecX& lambda, double scale,
                                  VecX& muBar, VecX& lambdaBar) const;
  // d/d(xFrame) of lambda^T K_w(xFrame) d. No-op for the linear material.
  void addDampingRotationAdjoint(const VecX& d, const VecX& lambda, const VecX& xFrame, double scale,
                                 VecX& frameBar) const;
  // Both frame terms at once, one polar derivative per element (warped corotation,
  // whose damping frames are its element rotations): d/d(xFrame) of
  // elasticScale lambda^T gradient(x; R) + dampingScale lambda^T K_w(R) d.
  void addWarpedFrameAdjoint(const VecX& x, double elasticScale, const VecX& d, double dampingScale,
                             const VecX& lambda, const VecX& xFrame, VecX& frameBar) const;

 private:
  Mat3 elementFrame(int e) const;

  std::vector<Element> elements_;
  MaterialModel model_;
  std::unique_ptr<Material> material_;
  std::vector<LameParameters> parameters_;
  std::vector<Mat3> rotations_;
  std::unique_ptr<Material> linear_;  // small-strain model for the damping stiffness
  // Linear and warped-corotated models: the rest element stiffness K0_e, so the step
  // matrix is blockdiag(R) K0_e blockdiag(R)^T (no quadrature loop per step), and the
  // gradient is blockdiag(R) (K0_e R^T x_e + g0_e) with g0_e the element's force at
  // x_e = 0 (a = node: g0_a = P(0) sum_q w_q dN_a/dX). Bit-identical matrices are stored
  // once (uncut grid cells with equal parameters share one): element e's is
  // restStiffness_[restIndex_[e]]. Rebuilt by setParameters.
  std::vector<MatX> restStiffness_;
  std::vector<int> restIndex_;
  std::vector<Mat3> restPiola_;  // per element: P(0) of the small-strain model
  const MatX& restStiffnessOf(int e) const { return restStiffness_[restIndex_[e]]; }
  // Per element: sum_q w_q dN/dX (nodes x 3) and the rest volume sum_q w_q, so the
  // volume-averaged F is sum_a x_a weightedShapeGradients_[e].row(a) / volume.
  std::vector<ShapeGradients> weightedShapeGradients_;
  std::vector<double> restVolumes_;
  int threads_ = 0;
  // cacheBlockPositions(): element e's block (a, b) sits at position
  // blockPositions_[blockOffsets_[e] + b * n + a] of block-column nodes[b] (n nodes).
  std::vector<int> blockPositions_, blockOffsets_;
  std::uint64_t positionsFingerprint_ = 0;
  bool hasBlockPositions_ = false;
  // cacheBlockPositions() of a linear-in-frame model: the rotated rest stiffness is
  // gathered block by block into matrices of that pattern (rotated_stiffness_gather.h).
  RotatedStiffnessGather gather_;
  // blockdiag(frames) K0 blockdiag(frames)^T summed into H: gathered when H has the
  // cached pattern, else element by element.
  void addRotatedRestStiffness(const std::vector<Mat3>& frames, BlockAssembler& H) const;
  // Linear-in-frame gradient from the rest stiffness (no quadrature loop).
  void addFrameGradient(const VecX& x, VecX& gradient) const;
  // Element e -> its cached block positions when they fit the assembler's pattern, else null.
  std::function<const int*(int)> blockPositionsFor(const BlockAssembler& assembler) const;
  double workPerElement_ = 1.0;  // mean quadrature points x nodes / 4 (thread thresholds)
  void buildRestStiffness();
  // Models made of 4-node one-point elements (tets) also keep them packed contiguously
  // (node indices, dN/dX, volume): the energy and gradient loops read ~1/3 of the
  // memory of the general elements. Empty for other element kinds.
  struct PackedTet {
    std::array<int, 4> nodes;
    Eigen::Matrix<double, 4, 3> dNdX;
    double weight;
  };
  std::vector<PackedTet> packedTets_;
  void packTets();
  // Shared by energy / addGradient / energyAndAddGradient (gradient may be null).
  double evaluate(const VecX& x, VecX* gradient, bool wantEnergy) const;
  bool linearInFrame() const { return model_ == MaterialModel::Linear || model_ == MaterialModel::WarpedCorotated; }
};


}  // namespace softfit

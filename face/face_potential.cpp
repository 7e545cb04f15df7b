#include "face/face_potential.h"

#include "forward/errors.h"
#include "forward/math/parallel_ranges.h"

namespace softfit::face {

namespace {
// Tets per batch of the parallel element loops (per-tet results are scattered in tet
// order after each batch, so sums are the same bits for any thread count).
constexpr int kAssemblyBatch = 4096;
}  // namespace

FacePotential::FacePotential(const FaceModel& model) : model_(model), blockPositions_(model.tetCount()) {
  for (int t = 0; t < model.tetCount(); ++t) {
    const Element& e = model.elements[t];
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        const int p = model.pattern.blockPosition(e.nodes[a], e.nodes[b]);
        if (p < 0) throw std::logic_error("FacePotential: a tet's node pair is not in the model's sparsity pattern");
        blockPositions_[t][4 * a + b] = p;
      }
  }
  setActivations(std::vector<Vec6>(model.tetCount(), identityActivation()));
}

void FacePotential::setActivations(const std::vector<Vec6>& tetActivations) {
  if (static_cast<int>(tetActivations.size()) != model_.tetCount())
    throw std::logic_error("FacePotential: one activation per tet expected");
  activations_ = tetActivations;
  polarsValid_ = false;
  activationMatrices_.resize(tetActivations.size());
  for (std::size_t i = 0; i < tetActivations.size(); ++i)
    activationMatrices_[i] = symmetricFromActivation(tetActivations[i]);
}

Mat3 FacePotential::deformation(int tet, const VecX& x) const {
  const Element& e = model_.elements[tet];
  Mat3 F = deformationGradient(e, e.quadrature[0], x);
  if (model_.plasticScale.size()) F /= model_.plasticScale[tet];
  return F;
}

bool FacePotential::polarsCurrent(const VecX& x) const {
  const VecX& scale = model_.plasticScale;
  return polarsValid_ && polarsX_.size() == x.size() && polarsX_ == x && polarsPlasticScale_.size() == scale.size() &&
         polarsPlasticScale_ == scale;
}

void FacePotential::polarsComputedAt(const VecX& x) const {
  polarsX_ = x;
  polarsPlasticScale_ = model_.plasticScale;
  polarsValid_ = true;
}

const std::vector<ActivePolar>& FacePotential::polars(const VecX& x) const {
  if (polarsCurrent(x)) return polars_;
  polarsValid_ = false;
  polars_.resize(model_.tetCount());
  forEachRangeInParallel(model_.tetCount(), 0, [&](int begin, int end) {
    for (int t = begin; t < end; ++t) polars_[t] = activePolar(deformation(t, x), activationMatrices_[t]);
  });
  polarsComputedAt(x);
  return polars_;
}

Eigen::Matrix<double, 9, 12> FacePotential::shapeMatrix(int tet) const {
  const auto& dN = model_.elements[tet].quadrature[0].dNdX;
  const double s = model_.plasticScale.size() ? 1.0 / model_.plasticScale[tet] : 1.0;
  Eigen::Matrix<double, 9, 12> B = Eigen::Matrix<double, 9, 12>::Zero();
  for (int a = 0; a < 4; ++a)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) B(i + 3 * j, 3 * a + i) = s * dN(a, j);
  return B;
}

Eigen::Matrix<double, 12, 1> FacePotential::elementGradient(int t, const Mat3& F, const ActivePolar& polar) const {
  // w B^T vec(P) = w vec(P dN^T) (dN scaled as in shapeMatrix()).
  const QuadraturePoint& q = model_.elements[t].quadrature[0];
  const double ws = q.weight * (model_.plasticScale.size() ? 1.0 / model_.plasticScale[t] : 1.0);
  const Mat3 P = activeFirstPiola(F, activationMatrices_[t], model_.lame[t], polar);
  const Eigen::Matrix<double, 3, 4> PB = (ws * P) * q.dNdX.transpose();
  return Eigen::Map<const Eigen::Matrix<double, 12, 1>>(PB.data());
}

void FacePotential::elementHessian(int t, const Mat3& F, const ActivePolar& polar, EigenvalueFilter kind,
                                   Eigen::Matrix<double, 12, 12>& He) const {
  // w B^T dP B with dP = 2 mu I + sum_m c_m vec(M_m) vec(M_m)^T: B^T B = (dN dN^T) kron I3
  // and B^T vec(M) = vec(M dN^T), so each term is one rank-1 12x12 update.
  const ActiveStiffnessTerms terms = activeFirstPiolaDerivativeTerms(F, activationMatrices_[t], model_.lame[t], polar);
  const QuadraturePoint& q = model_.elements[t].quadrature[0];
  const double s = model_.plasticScale.size() ? 1.0 / model_.plasticScale[t] : 1.0;  // as shapeMatrix()
  const Eigen::Matrix<double, 4, 3> dN = s * q.dNdX;
  const Eigen::Matrix4d G = (q.weight * terms.identity) * (dN * dN.transpose());
  // V's columns v_m = vec(M_m dN^T), W's w v_m: the lower triangle of W V^T, mirrored
  // (exactly symmetric), plus the identity term on the 3x3 blocks' diagonals.
  Eigen::Matrix<double, 7, 12> V, W;  // transposed: the 7 terms of an entry contiguous
  for (int m = 0; m < 7; ++m) {
    const Eigen::Matrix<double, 3, 4> MB = terms.M[m] * dN.transpose();
    V.row(m) = Eigen::Map<const Eigen::Matrix<double, 1, 12>>(MB.data());
    W.row(m) = (q.weight * terms.weight[m]) * V.row(m);
  }
  for (int j = 0; j < 12; ++j)
    for (int i = j; i < 12; ++i) He(i, j) = W.col(i).dot(V.col(j));
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b <= a; ++b) He.block<3, 3>(3 * a, 3 * b).diagonal().array() += G(a, b);
  He.triangularView<Eigen::StrictlyUpper>() = He.transpose();
  projectToPsd<12>(He, kind, 0.0);
}

double FacePotential::elasticEnergy(const VecX& x) const {
  const std::vector<ActivePolar>& polar = polars(x);
  double E = 0.0;
  for (int t = 0; t < model_.tetCount(); ++t)
    E += model_.elements[t].quadrature[0].weight *
         activeEnergyDensity(deformation(t, x), activationMatrices_[t], model_.lame[t], polar[t]);
  return E;
}

double FacePotential::value(const VecX& x) {
  const double E = elasticEnergy(x) - model_.externalForce().dot(x);
  return E;
}

void FacePotential::gradient(const VecX& x, VecX& g) {
  const std::vector<ActivePolar>& polar = polars(x);
  g = -model_.externalForce();
  std::vector<Eigen::Matrix<double, 12, 1>> local(kAssemblyBatch);
  computeInParallelScatterInOrder(
      model_.tetCount(), kAssemblyBatch, 0,
      [&](int t, int slot) { local[slot] = elementGradient(t, deformation(t, x), polar[t]); },
      [&](int t, int slot) {
        const Element& e = model_.elements[t];
        for (int a = 0; a < 4; ++a) g.segment<3>(3 * e.nodes[a]) += local[slot].segment<3>(3 * a);
      });
}

void FacePotential::hessian(const VecX& x, SparseMatrix& H, HessianKind kind) { assemble(x, nullptr, H, kind); }

void FacePotential::gradientAndHessian(const VecX& x, VecX& g, SparseMatrix& H, HessianKind kind) {
  assemble(x, &g, H, kind);
}

void FacePotential::assemble(const VecX& x, VecX* g, SparseMatrix& H, HessianKind kind) {
  BlockAssembler assembler(model_.pattern, H);
  assembler.setZero();
  using Mat12 = Eigen::Matrix<double, 12, 12>;
  // The polar decompositions in the same pass when they are not cached for x.
  const bool newPolars = !polarsCurrent(x);
  if (newPolars) {
    polarsValid_ = false;
    polars_.resize(model_.tetCount());
  }
  if (g) *g = -model_.externalForce();
  const EigenvalueFilter elementKind = elementFilter(filter, kind);
  std::vector<Mat12> local(kAssemblyBatch);
  std::vector<Eigen::Matrix<double, 12, 1>> localGradient(g ? kAssemblyBatch : 0);
  computeInParallelScatterInOrder(
      model_.tetCount(), kAssemblyBatch, 0,
      [&](int t, int slot) {
        const Mat3 F = deformation(t, x);
        if (newPolars) polars_[t] = activePolar(F, activationMatrices_[t]);
        elementHessian(t, F, polars_[t], elementKind, local[slot]);
        if (g) localGradient[slot] = elementGradient(t, F, polars_[t]);
      },
      [&](int t, int slot) {
        const Element& e = model_.elements[t];
        const std::array<int, 16>& positions = blockPositions_[t];
        for (int a = 0; a < 4; ++a)
          for (int b = 0; b < 4; ++b)
            assembler.addBlockAt(positions[4 * a + b], e.nodes[b], local[slot].block<3, 3>(3 * a, 3 * b));
        if (g)
          for (int a = 0; a < 4; ++a) g->segment<3>(3 * e.nodes[a]) += localGradient[slot].segment<3>(3 * a);
      });
  if (newPolars) polarsComputedAt(x);
}

VecX FacePotential::exactHessianProduct(const VecX& x, const VecX& v, const std::vector<char>* tets) const {
  if (tets && static_cast<int>(tets->size()) != model_.tetCount())
    throw std::logic_error("FacePotential::exactHessianProduct: one flag per tet expected");
  const std::vector<ActivePolar>& polar = polars(x);
  VecX out = VecX::Zero(x.size());
  for (int t = 0; t < model_.tetCount(); ++t) {
    if (tets && !(*tets)[t]) continue;
    const Element& e = model_.elements[t];
    Eigen::Matrix<double, 12, 1> ve;
    for (int a = 0; a < 4; ++a) ve.segment<3>(3 * a) = v.segment<3>(3 * e.nodes[a]);
    // A tet where v vanishes adds (signed) zeros: skip it (v on the mandible nodes only,
    // FaceSolver::sensitivity, touches few tets). Same bits.
    if (!ve.any()) continue;
    const Eigen::Matrix<double, 9, 12> B = shapeMatrix(t);
    const Mat9 dP = activeFirstPiolaDerivative(deformation(t, x), activationMatrices_[t], model_.lame[t], polar[t]);
    const Eigen::Matrix<double, 12, 1> he = e.quadrature[0].weight * (B.transpose() * (dP * (B * ve)));
    for (int a = 0; a < 4; ++a) out.segment<3>(3 * e.nodes[a]) += he.segment<3>(3 * a);
  }
  return out;
}

Eigen::Matrix<double, 12, 6> FacePotential::activationForceBlock(int t, const VecX& x, const ActivePolar& polar) const {
  const Mat96 dPda = activeFirstPiolaActivationDerivative(deformation(t, x), activationMatrices_[t], model_.lame[t], polar);
  // w s B^T dPda with B's sparsity (s as in shapeMatrix()).
  const QuadraturePoint& q = model_.elements[t].quadrature[0];
  const double ws = q.weight * (model_.plasticScale.size() ? 1.0 / model_.plasticScale[t] : 1.0);
  Eigen::Matrix<double, 12, 6> block = Eigen::Matrix<double, 12, 6>::Zero();
  addShapeTransposeProduct<4>(q.dNdX, ws, dPda, block);
  return block;
}

const std::vector<Eigen::Matrix<double, 12, 6>>& FacePotential::activationForceBlocks(
    const VecX& x, const std::vector<char>& wanted) const {
  if (!wanted.empty() && static_cast<int>(wanted.size()) != model_.tetCount())
    throw std::logic_error("FacePotential::activationForceBlocks: one flag per tet expected");
  const std::vector<ActivePolar>& polar = polars(x);
  std::vector<Eigen::Matrix<double, 12, 6>>& out = forceBlocks_;
  out.resize(model_.tetCount());
  forEachRangeInParallel(model_.tetCount(), 0, [&](int begin, int end) {
    for (int t = begin; t < end; ++t) {
      if (!wanted.empty() && !wanted[t])
        out[t].setZero();
      else
        out[t] = activationForceBlock(t, x, polar[t]);
    }
  });
  return out;
}

std::vector<Vec6> FacePotential::activationAdjoint(const VecX& x, const VecX& lambda) const {
  // Each tet's block used where it is made, on all threads (each writes its own entry).
  const std::vector<ActivePolar>& polar = polars(x);
  std::vector<Vec6> out(model_.tetCount());
  forEachRangeInParallel(model_.tetCount(), 0, [&](int begin, int end) {
    for (int t = begin; t < end; ++t) {
      const Element& e = model_.elements[t];
      Eigen::Matrix<double, 12, 1> le;
      for (int a = 0; a < 4; ++a) le.segment<3>(3 * a) = lambda.segment<3>(3 * e.nodes[a]);
      out[t] = -(activationForceBlock(t, x, polar[t]).transpose() * le);
    }
  });
  return out;
}

}  // namespace softfit::face

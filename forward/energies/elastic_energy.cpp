#include "forward/energies/elastic_energy.h"

#include <stdexcept>

#include "forward/math/polar_decomposition.h"

namespace softfit {

namespace {

// vec(R M) = blockdiag(R, R, R) vec(M) for column-major vec.
Mat9 leftRotation(const Mat3& R) {
  Mat9 B = Mat9::Zero();
  for (int j = 0; j < 3; ++j) B.block<3, 3>(3 * j, 3 * j) = R;
  return B;
}

// Element Hessian with compile-time node count N (tets: 4, hex cells: 8) or dynamic.
// vec(F) = B x_e with dF(k, j) / dx(a, k) = dN_a/dX_j, so H = sum_q w_q B^T C_q B with
// C_q = dP/dF at the quadrature point's deformation gradient `F(q)` (in frame R).
template <int N>
using ElementMatrix = Eigen::Matrix<double, N == Eigen::Dynamic ? Eigen::Dynamic : 3 * N,
                                    N == Eigen::Dynamic ? Eigen::Dynamic : 3 * N>;

template <int N, typename DeformationAt>
ElementMatrix<N> elementHessianImpl(const Element& el, const Material& material, const LameParameters& params,
                                    const Mat3& R, bool rotate, DeformationAt F) {
  const int n = el.nodeCount();
  using BMatrix = Eigen::Matrix<double, 9, N == Eigen::Dynamic ? Eigen::Dynamic : 3 * N>;
  const Mat9 Rl = leftRotation(R);
  ElementMatrix<N> H = ElementMatrix<N>::Zero(3 * n, 3 * n);
  BMatrix B = BMatrix::Zero(9, 3 * n);
  for (const auto& q : el.quadrature) {
    Mat9 C = material.firstPiolaDerivative(R.transpose() * F(q), params);
    if (rotate) C = (Rl.lazyProduct(C)).lazyProduct(Rl.transpose());
    for (int a = 0; a < n; ++a)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) B(k + 3 * j, 3 * a + k) = q.dNdX(a, j);
    // Small fixed sizes: coefficient-based products beat the blocked GEMM kernel.
    const BMatrix CB = C.lazyProduct(B);
    H.noalias() += q.weight * B.transpose().lazyProduct(CB);
  }
  return H;
}

template <int N>
void addElementHessian(const Element& el, ElementMatrix<N> He, BlockAssembler& H, EigenvalueFilter filter,
                       double filterEpsilon) {
  if (filter != EigenvalueFilter::None) {
    if constexpr (N == Eigen::Dynamic) projectToPsd(Eigen::Ref<MatX>(He), filter, filterEpsilon);
    else projectToPsd<3 * N>(He, filter, filterEpsilon);
  }
  for (int b = 0; b < el.nodeCount(); ++b)
    for (int a = 0; a < el.nodeCount(); ++a)
      H.addBlock(el.nodes[a], el.nodes[b], He.template block<3, 3>(3 * a, 3 * b));
}

// Dispatches on the element's node count to the fixed-size kernels.
template <typename DeformationAt>
void assembleElement(const Element& el, const Material& material, const LameParameters& params, const Mat3& R,
                     bool rotate, DeformationAt F, BlockAssembler& H, EigenvalueFilter filter, double eps) {
  switch (el.nodeCount()) {
    case 4: addElementHessian<4>(el, elementHessianImpl<4>(el, material, params, R, rotate, F), H, filter, eps); break;
    case 8: addElementHessian<8>(el, elementHessianImpl<8>(el, material, params, R, rotate, F), H, filter, eps); break;
    default:
      addElementHessian<Eigen::Dynamic>(el, elementHessianImpl<Eigen::Dynamic>(el, material, params, R, rotate, F), H,
                                        filter, eps);
  }
}

}  // namespace

ElasticEnergy::ElasticEnergy(std::vector<Element> elements, MaterialModel model, std::vector<LameParameters> parameters)
    : elements_(std::move(elements)),
      model_(model),
      material_(makeMaterial(model)),
      linear_(makeMaterial(MaterialModel::Linear)) {
  setParameters(std::move(parameters));
  rotations_.assign(elements_.size(), Mat3::Identity());
}

void ElasticEnergy::setParameters(std::vector<LameParameters> parameters) {
  if (parameters.size() != elements_.size())
    throw std::invalid_argument("ElasticEnergy: one LameParameters per element required");
  parameters_ = std::move(parameters);
  buildRestStiffness();
}

void ElasticEnergy::buildRestStiffness() {
  restStiffness_.clear();
  if (!linearInFrame()) return;
  restStiffness_.reserve(elements_.size());
  for (size_t e = 0; e < elements_.size(); ++e)
    restStiffness_.push_back(elementHessianImpl<Eigen::Dynamic>(elements_[e], *linear_, parameters_[e],
                                                                Mat3::Identity(), false,
                                                                [](const QuadraturePoint&) { return Mat3::Identity(); }));
}

namespace {

// blockdiag(R) K0 blockdiag(R)^T added block by block.
void addRotatedStiffness(const Element& el, const MatX& K0, const Mat3& R, double scale, BlockAssembler& H) {
  const int n = el.nodeCount();
  for (int b = 0; b < n; ++b)
    for (int a = 0; a < n; ++a) {
      const Mat3 block = R * K0.block<3, 3>(3 * a, 3 * b) * R.transpose();
      H.addBlock(el.nodes[a], el.nodes[b], scale * block);
    }
}

}  // namespace

Mat3 ElasticEnergy::averageDeformationGradient(int e, const VecX& x) const {
  const Element& el = elements_[e];
  Mat3 F = Mat3::Zero();
  double volume = 0.0;
  for (const auto& q : el.quadrature) {
    F += q.weight * deformationGradient(el, q, x);
    volume += q.weight;
  }
  return F / volume;
}

void ElasticEnergy::updateRotations(const VecX& x) {
  if (!usesElementRotations()) return;
  for (size_t e = 0; e < elements_.size(); ++e)
    rotations_[e] = polarRotation(averageDeformationGradient(static_cast<int>(e), x));
}

Mat3 ElasticEnergy::elementFrame(int e) const {
  return usesElementRotations() ? rotations_[e] : Mat3::Identity();
}

double ElasticEnergy::energy(const VecX& x) const {
  double total = 0.0;
  for (size_t e = 0; e < elements_.size(); ++e) {
    const Element& el = elements_[e];
    const Mat3 Rt = elementFrame(static_cast<int>(e)).transpose();
    for (const auto& q : el.quadrature)
      total += q.weight * material_->energyDensity(Rt * deformationGradient(el, q, x), parameters_[e]);
  }
  return total;
}

void ElasticEnergy::addGradient(const VecX& x, VecX& gradient) const {
  for (size_t e = 0; e < elements_.size(); ++e) {
    const Element& el = elements_[e];
    const Mat3 R = elementFrame(static_cast<int>(e));
    for (const auto& q : el.quadrature) {
      const Mat3 P = R * material_->firstPiola(R.transpose() * deformationGradient(el, q, x), parameters_[e]);
      const Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, kMaxElementNodes> forces =
          q.weight * P * q.dNdX.transpose();
      for (int a = 0; a < el.nodeCount(); ++a) gradient.segment<3>(3 * el.nodes[a]) += forces.col(a);
    }
  }
}

MatX ElasticEnergy::elementHessian(int e, const VecX& x) const {
  const Element& el = elements_[e];
  return elementHessianImpl<Eigen::Dynamic>(el, *material_, parameters_[e], elementFrame(e), usesElementRotations(),
                                            [&](const QuadraturePoint& q) { return deformationGradient(el, q, x); });
}

void ElasticEnergy::addHessian(const VecX& x, BlockAssembler& H, EigenvalueFilter filter, double filterEpsilon) const {
  // Linear elasticity (also in the warped element frame) has constant PSD element
  // Hessians: rotate the cached rest stiffness.
  if (linearInFrame()) {
    for (size_t e = 0; e < elements_.size(); ++e)
      addRotatedStiffness(elements_[e], restStiffness_[e], elementFrame(static_cast<int>(e)), 1.0, H);
    return;
  }
  const bool rotate = usesElementRotations();
  for (size_t e = 0; e < elements_.size(); ++e) {
    const Element& el = elements_[e];
    assembleElement(
        el, *material_, parameters_[e], elementFrame(static_cast<int>(e)), rotate,
        [&](const QuadraturePoint& q) { return deformationGradient(el, q, x); }, H, filter, filterEpsilon);
  }
}

std::vector<Mat3> ElasticEnergy::dampingFrames(const VecX& xFrame) const {
  std::vector<Mat3> frames(elements_.size(), Mat3::Identity());
  if (model_ == MaterialModel::Linear) return frames;
  for (size_t e = 0; e < elements_.size(); ++e)
    frames[e] = polarRotation(averageDeformationGradient(static_cast<int>(e), xFrame));
  return frames;
}

void ElasticEnergy::addDampingStiffness(const std::vector<Mat3>& frames, BlockAssembler& K) const {
  if (linearInFrame()) {
    for (size_t e = 0; e < elements_.size(); ++e) addRotatedStiffness(elements_[e], restStiffness_[e], frames[e], 1.0, K);
    return;
  }
  // The small-strain tensor does not depend on F: evaluate it at the frame itself.
  for (size_t e = 0; e < elements_.size(); ++e)
    assembleElement(
        elements_[e], *linear_, parameters_[e], frames[e], true, [&](const QuadraturePoint&) { return frames[e]; }, K,
        EigenvalueFilter::None, 0.0);
}

}  // namespace softfit

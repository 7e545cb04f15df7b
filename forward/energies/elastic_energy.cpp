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

}  // namespace

ElasticEnergy::ElasticEnergy(std::vector<Element> elements, MaterialModel model, std::vector<LameParameters> parameters)
    : elements_(std::move(elements)), model_(model), material_(makeMaterial(model)) {
  setParameters(std::move(parameters));
  rotations_.assign(elements_.size(), Mat3::Identity());
}

void ElasticEnergy::setParameters(std::vector<LameParameters> parameters) {
  if (parameters.size() != elements_.size())
    throw std::invalid_argument("ElasticEnergy: one LameParameters per element required");
  parameters_ = std::move(parameters);
}

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

namespace {

// Element Hessian with compile-time node count N (tets: 4, hex cells: 8) or dynamic.
// vec(F) = B x_e with dF(k, j) / dx(a, k) = dN_a/dX_j, so H = sum_q w_q B^T C_q B.
template <int N>
using ElementMatrix = Eigen::Matrix<double, N == Eigen::Dynamic ? Eigen::Dynamic : 3 * N,
                                    N == Eigen::Dynamic ? Eigen::Dynamic : 3 * N>;

template <int N>
ElementMatrix<N> elementHessianImpl(const Element& el, const VecX& x, const Material& material,
                                    const LameParameters& params, const Mat3& R, bool rotate) {
  const int n = el.nodeCount();
  using BMatrix = Eigen::Matrix<double, 9, N == Eigen::Dynamic ? Eigen::Dynamic : 3 * N>;
  const Mat9 Rl = leftRotation(R);
  ElementMatrix<N> H = ElementMatrix<N>::Zero(3 * n, 3 * n);
  BMatrix B = BMatrix::Zero(9, 3 * n);
  for (const auto& q : el.quadrature) {
    Mat9 C = material.firstPiolaDerivative(R.transpose() * deformationGradient(el, q, x), params);
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

}  // namespace

MatX ElasticEnergy::elementHessian(int e, const VecX& x) const {
  return elementHessianImpl<Eigen::Dynamic>(elements_[e], x, *material_, parameters_[e], elementFrame(e),
                                            usesElementRotations());
}

void ElasticEnergy::addHessian(const VecX& x, BlockAssembler& H, EigenvalueFilter filter, double filterEpsilon) const {
  // Linear elasticity (also in the warped element frame) has PSD element Hessians.
  if (model_ == MaterialModel::Linear || model_ == MaterialModel::WarpedCorotated) filter = EigenvalueFilter::None;
  const bool rotate = usesElementRotations();
  for (size_t e = 0; e < elements_.size(); ++e) {
    const Element& el = elements_[e];
    const Mat3 R = elementFrame(static_cast<int>(e));
    switch (el.nodeCount()) {
      case 4:
        addElementHessian<4>(el, elementHessianImpl<4>(el, x, *material_, parameters_[e], R, rotate), H, filter,
                             filterEpsilon);
        break;
      case 8:
        addElementHessian<8>(el, elementHessianImpl<8>(el, x, *material_, parameters_[e], R, rotate), H, filter,
                             filterEpsilon);
        break;
      default:
        addElementHessian<Eigen::Dynamic>(
            el, elementHessianImpl<Eigen::Dynamic>(el, x, *material_, parameters_[e], R, rotate), H, filter,
            filterEpsilon);
    }
  }
}

}  // namespace softfit

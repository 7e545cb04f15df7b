#include "forward/energies/elastic_energy.h"

#include <functional>
#include <stdexcept>

#include "forward/math/parallel_ranges.h"
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
    if constexpr (N != Eigen::Dynamic) {
      // B = dN^T kron I3 is sparse: CB(r, 3b + l) = sum_m C(r, l + 3m) dN(b, m) and
      // H(3a + k, :) += w sum_j dN(a, j) CB(k + 3j, :). A third of the dense product's
      // flops (hex cells: 2.4k instead of 7.1k per quadrature point).
      Eigen::Matrix<double, 9, 3 * N> CB;
      for (int b = 0; b < N; ++b)
        CB.template middleCols<3>(3 * b).noalias() = C.template middleCols<3>(0) * q.dNdX(b, 0) +
                                                     C.template middleCols<3>(3) * q.dNdX(b, 1) +
                                                     C.template middleCols<3>(6) * q.dNdX(b, 2);
      for (int a = 0; a < N; ++a)
        H.template middleRows<3>(3 * a).noalias() += (q.weight * q.dNdX(a, 0)) * CB.template topRows<3>() +
                                                     (q.weight * q.dNdX(a, 1)) * CB.template middleRows<3>(3) +
                                                     (q.weight * q.dNdX(a, 2)) * CB.template bottomRows<3>();
      continue;
    }
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
void filterInPlace(ElementMatrix<N>& He, EigenvalueFilter filter, double filterEpsilon) {
  if (filter == EigenvalueFilter::None) return;
  if constexpr (N == Eigen::Dynamic) projectToPsd(Eigen::Ref<MatX>(He), filter, filterEpsilon);
  else projectToPsd<3 * N>(He, filter, filterEpsilon);
}

// The element's (filtered) Hessian, dispatched on its node count to the fixed-size kernels.
template <typename DeformationAt>
void filteredElementHessian(const Element& el, const Material& material, const LameParameters& params, const Mat3& R,
                            bool rotate, DeformationAt F, EigenvalueFilter filter, double eps, MatX& out) {
  switch (el.nodeCount()) {
    case 4: {
      ElementMatrix<4> He = elementHessianImpl<4>(el, material, params, R, rotate, F);
      filterInPlace<4>(He, filter, eps);
      out = He;
      break;
    }
    case 8: {
      ElementMatrix<8> He = elementHessianImpl<8>(el, material, params, R, rotate, F);
      filterInPlace<8>(He, filter, eps);
      out = He;
      break;
    }
    default:
      out = elementHessianImpl<Eigen::Dynamic>(el, material, params, R, rotate, F);
      filterInPlace<Eigen::Dynamic>(out, filter, eps);
  }
}

// positions: the element's cached block positions (b-major), or null to search.
void addElementBlocks(const Element& el, const MatX& He, BlockAssembler& H, const int* positions) {
  const int n = el.nodeCount();
  if (positions) {
    for (int b = 0; b < n; ++b)
      for (int a = 0; a < n; ++a) H.addBlockAt(positions[b * n + a], el.nodes[b], He.block<3, 3>(3 * a, 3 * b));
    return;
  }
  for (int b = 0; b < n; ++b)
    for (int a = 0; a < n; ++a) H.addBlock(el.nodes[a], el.nodes[b], He.block<3, 3>(3 * a, 3 * b));
}

// Elements per batch of the parallel element loops: each batch is one parallel region
// (~0.1 ms to start with std::threads, less with OpenMP's waiting workers), and its
// scratch memory is batch x (one element's result).
constexpr int kHessianBatch = 4096;   // up to 24 x 24 doubles per element
constexpr int kGradientBatch = 1 << 16;  // 3 x 8 doubles per element
// Energy and gradient cost ~50 ns per element. On OpenMP's persistent workers a thread
// pays off from ~0.2 ms of work (4k elements: the 16.6k-tet twisting bar's L-BFGS frame
// went from 17.1-17.9 to 12.6-13.6 ms on 2 cores); a std::thread (~0.1 ms to start, more
// on a loaded machine) only on a large share of elements.
int gradientElementsPerThread() { return persistentParallelWorkers() ? 1 << 12 : 1 << 15; }

// Element Hessians computed in parallel (`hessian(e, out)`), added to H in element order;
// positions(e): element e's cached block positions or null.
template <typename ElementHessian, typename Positions>
void addElementHessians(const std::vector<Element>& elements, int threads, const ElementHessian& hessian,
                        const Positions& positions, BlockAssembler& H) {
  const int n = static_cast<int>(elements.size());
  std::vector<MatX> blocks(std::min(n, kHessianBatch));
  computeInParallelScatterInOrder(
      n, std::max<int>(1, blocks.size()), threads, [&](int e, int slot) { hessian(e, blocks[slot]); },
      [&](int e, int slot) { addElementBlocks(elements[e], blocks[slot], H, positions(e)); });
}

}  // namespace

ElasticEnergy::ElasticEnergy(std::vector<Element> elements, MaterialModel model, std::vector<LameParameters> parameters)
    : elements_(std::move(elements)),
      model_(model),
      material_(makeMaterial(model)),
      linear_(makeMaterial(MaterialModel::Linear)) {
  setParameters(std::move(parameters));
  rotations_.assign(elements_.size(), Mat3::Identity());
  packTets();
  double work = 0.0;
  for (const Element& el : elements_) work += el.quadrature.size() * el.nodeCount() / 4.0;
  workPerElement_ = elements_.empty() ? 1.0 : work / elements_.size();
}

void ElasticEnergy::packTets() {
  packedTets_.clear();
  for (const Element& el : elements_)
    if (el.nodeCount() != 4 || el.quadrature.size() != 1) return;
  packedTets_.reserve(elements_.size());
  for (const Element& el : elements_) {
    const QuadraturePoint& q = el.quadrature.front();
    packedTets_.push_back({{el.nodes[0], el.nodes[1], el.nodes[2], el.nodes[3]}, q.dNdX, q.weight});
  }
}

void ElasticEnergy::setParameters(std::vector<LameParameters> parameters) {
  if (parameters.size() != elements_.size())
    throw std::invalid_argument("ElasticEnergy: one LameParameters per element required");
  parameters_ = std::move(parameters);
  buildRestStiffness();
}

MatX restElementStiffness(const Element& el, const Material& linear, const LameParameters& parameters) {
  return elementHessianImpl<Eigen::Dynamic>(el, linear, parameters, Mat3::Identity(), false,
                                            [](const QuadraturePoint&) { return Mat3::Identity(); });
}

void ElasticEnergy::buildRestStiffness() {
  restStiffness_.clear();
  if (!linearInFrame()) return;
  restStiffness_.reserve(elements_.size());
  for (size_t e = 0; e < elements_.size(); ++e)
    restStiffness_.push_back(restElementStiffness(elements_[e], *linear_, parameters_[e]));
}

namespace {

// blockdiag(R) K0 blockdiag(R)^T, block by block.
void rotatedStiffness(const MatX& K0, const Mat3& R, MatX& out) {
  out.resize(K0.rows(), K0.cols());
  const int n = static_cast<int>(K0.rows() / 3);
  for (int b = 0; b < n; ++b)
    for (int a = 0; a < n; ++a) out.block<3, 3>(3 * a, 3 * b) = R * K0.block<3, 3>(3 * a, 3 * b) * R.transpose();
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
  // Each element writes its own frame: the same bits for any thread count.
  forEachRangeInParallel(static_cast<int>(elements_.size()), threads_, [&](int begin, int end) {
    for (int e = begin; e < end; ++e) rotations_[e] = polarRotation(averageDeformationGradient(e, x));
  }, 512);
}

Mat3 ElasticEnergy::elementFrame(int e) const {
  return usesElementRotations() ? rotations_[e] : Mat3::Identity();
}

double ElasticEnergy::evaluate(const VecX& x, VecX* gradient, bool wantEnergy) const {
  const int n = static_cast<int>(elements_.size());
  const int batch = std::min(n, kGradientBatch);
  std::vector<double> energies(wantEnergy ? batch : 0);
  double total = 0.0;
  const bool rotated = usesElementRotations();
  if (!packedTets_.empty()) {
    using TetForces = Eigen::Matrix<double, 3, 4>;
    std::vector<TetForces> forces(gradient ? batch : 0);
    computeInParallelScatterInOrder(
        n, std::max(batch, 1), threads_,
        [&](int e, int slot) {
          const PackedTet& t = packedTets_[e];
          Mat3 F = Mat3::Zero();  // same sums as deformationGradient
          for (int a = 0; a < 4; ++a) {
            const double* xa = x.data() + 3 * t.nodes[a];
            for (int j = 0; j < 3; ++j)
              for (int k = 0; k < 3; ++k) F(k, j) += xa[k] * t.dNdX(a, j);
          }
          if (rotated) F = rotations_[e].transpose() * F;
          if (!gradient) {
            energies[slot] = t.weight * material_->energyDensity(F, parameters_[e]);
            return;
          }
          Mat3 P;
          if (wantEnergy) energies[slot] = t.weight * material_->energyAndFirstPiola(F, parameters_[e], P);
          else P = material_->firstPiola(F, parameters_[e]);
          if (rotated) P = rotations_[e] * P;
          forces[slot].noalias() = t.weight * P * t.dNdX.transpose();
        },
        [&](int e, int slot) {
          if (wantEnergy) total += energies[slot];
          if (gradient)
            for (int a = 0; a < 4; ++a) gradient->segment<3>(3 * packedTets_[e].nodes[a]) += forces[slot].col(a);
        },
        gradientElementsPerThread());
    return total;
  }
  using NodeForces = Eigen::Matrix<double, 3, kMaxElementNodes>;
  std::vector<NodeForces> forces(gradient ? batch : 0);
  // A general element costs more than (quadrature points) x (nodes / 4) packed tets (no
  // packed layout, Element indirections): thread from ~0.5 ms of work per thread on.
  const int generalPerThread =
      std::max(256, static_cast<int>(gradientElementsPerThread() / (4.0 * std::max(1.0, workPerElement_))));
  computeInParallelScatterInOrder(
      n, std::max(batch, 1), threads_,
      [&](int e, int slot) {
        const Element& el = elements_[e];
        double energy = 0.0;
        if (gradient) forces[slot].setZero();
        for (const auto& q : el.quadrature) {
          Mat3 F = deformationGradient(el, q, x);
          if (rotated) F = rotations_[e].transpose() * F;
          if (!gradient) {
            energy += q.weight * material_->energyDensity(F, parameters_[e]);
            continue;
          }
          Mat3 P;
          if (wantEnergy) energy += q.weight * material_->energyAndFirstPiola(F, parameters_[e], P);
          else P = material_->firstPiola(F, parameters_[e]);
          if (rotated) P = rotations_[e] * P;
          forces[slot].leftCols(el.nodeCount()).noalias() += q.weight * P * q.dNdX.transpose();
        }
        if (wantEnergy) energies[slot] = energy;
      },
      [&](int e, int slot) {
        if (wantEnergy) total += energies[slot];
        if (gradient) {
          const Element& el = elements_[e];
          for (int a = 0; a < el.nodeCount(); ++a) gradient->segment<3>(3 * el.nodes[a]) += forces[slot].col(a);
        }
      },
      generalPerThread);
  return total;
}

double ElasticEnergy::energy(const VecX& x) const { return evaluate(x, nullptr, true); }

void ElasticEnergy::addGradient(const VecX& x, VecX& gradient) const { evaluate(x, &gradient, false); }

double ElasticEnergy::energyAndAddGradient(const VecX& x, VecX& gradient) const { return evaluate(x, &gradient, true); }

MatX ElasticEnergy::elementHessian(int e, const VecX& x) const {
  const Element& el = elements_[e];
  return elementHessianImpl<Eigen::Dynamic>(el, *material_, parameters_[e], elementFrame(e), usesElementRotations(),
                                            [&](const QuadraturePoint& q) { return deformationGradient(el, q, x); });
}

void ElasticEnergy::addHessian(const VecX& x, BlockAssembler& H, EigenvalueFilter filter, double filterEpsilon) const {
  const auto positions = blockPositionsFor(H);
  // Linear elasticity (also in the warped element frame) has constant PSD element
  // Hessians: rotate the cached rest stiffness.
  if (linearInFrame()) {
    addElementHessians(
        elements_, threads_, [&](int e, MatX& out) { rotatedStiffness(restStiffness_[e], elementFrame(e), out); },
        positions, H);
    return;
  }
  const bool rotate = usesElementRotations();
  addElementHessians(
      elements_, threads_,
      [&](int e, MatX& out) {
        const Element& el = elements_[e];
        filteredElementHessian(
            el, *material_, parameters_[e], elementFrame(e), rotate,
            [&](const QuadraturePoint& q) { return deformationGradient(el, q, x); }, filter, filterEpsilon, out);
      },
      positions, H);
}

std::vector<Mat3> ElasticEnergy::dampingFrames(const VecX& xFrame) const {
  std::vector<Mat3> frames(elements_.size(), Mat3::Identity());
  if (model_ == MaterialModel::Linear) return frames;
  for (size_t e = 0; e < elements_.size(); ++e)
    frames[e] = polarRotation(averageDeformationGradient(static_cast<int>(e), xFrame));
  return frames;
}

void ElasticEnergy::cacheBlockPositions(const BlockSparsePattern& pattern) {
  blockOffsets_.assign(elements_.size() + 1, 0);
  blockPositions_.clear();
  for (size_t e = 0; e < elements_.size(); ++e) {
    const Element& el = elements_[e];
    for (int b = 0; b < el.nodeCount(); ++b)
      for (int a = 0; a < el.nodeCount(); ++a) {
        const int p = pattern.blockPosition(el.nodes[a], el.nodes[b]);
        if (p < 0) throw std::logic_error("ElasticEnergy::cacheBlockPositions: element block not in the pattern");
        blockPositions_.push_back(p);
      }
    blockOffsets_[e + 1] = static_cast<int>(blockPositions_.size());
  }
  positionsFingerprint_ = pattern.fingerprint();
  hasBlockPositions_ = true;
}

std::function<const int*(int)> ElasticEnergy::blockPositionsFor(const BlockAssembler& assembler) const {
  if (!hasBlockPositions_ || assembler.pattern().fingerprint() != positionsFingerprint_)
    return [](int) -> const int* { return nullptr; };
  return [this](int e) { return blockPositions_.data() + blockOffsets_[e]; };
}

void ElasticEnergy::addDampingStiffness(const std::vector<Mat3>& frames, BlockAssembler& K) const {
  const auto positions = blockPositionsFor(K);
  if (linearInFrame()) {
    addElementHessians(
        elements_, threads_, [&](int e, MatX& out) { rotatedStiffness(restStiffness_[e], frames[e], out); },
        positions, K);
    return;
  }
  // The small-strain tensor does not depend on F: evaluate it at the frame itself.
  addElementHessians(
      elements_, threads_,
      [&](int e, MatX& out) {
        filteredElementHessian(
            elements_[e], *linear_, parameters_[e], frames[e], true, [&](const QuadraturePoint&) { return frames[e]; },
            EigenvalueFilter::None, 0.0, out);
      },
      positions, K);
}

}  // namespace softfit

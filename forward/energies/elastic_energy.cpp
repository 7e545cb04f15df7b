#include "forward/energies/elastic_energy.h"
#include "forward/energies/elastic_element_kernels.h"

#include <cstring>
#include <functional>
#include <unordered_map>
#include <stdexcept>

#include "forward/math/parallel_ranges.h"
#include "forward/math/polar_decomposition.h"

namespace softfit {

using namespace element_kernels;

namespace {

// Elements per batch of the parallel energy and gradient loops (the Hessian loops':
// elastic_element_kernels.h): each batch is one parallel region, and its scratch memory
// is batch x (one element's result).
constexpr int kGradientBatch = 1 << 16;  // 3 x 8 doubles per element
// Energy and gradient cost ~50 ns per element. On OpenMP's persistent workers a thread
// pays off from ~0.2 ms of work (4k elements: the 16.6k-tet twisting bar's L-BFGS frame
// went from 17.1-17.9 to 12.6-13.6 ms on 2 cores); a std::thread (~0.1 ms to start, more
// on a loaded machine) only on a large share of elements.
int gradientElementsPerThread() { return persistentParallelWorkers() ? 1 << 12 : 1 << 15; }

}  // namespace

ElasticEnergy::ElasticEnergy(std::vector<Element> elements, MaterialModel model, std::vector<LameParameters> parameters)
    : elements_(std::move(elements)),
      model_(model),
      material_(makeMaterial(model)),
      linear_(makeMaterial(MaterialModel::Linear)) {
  setParameters(std::move(parameters));
  rotations_.assign(elements_.size(), Mat3::Identity());
  weightedShapeGradients_.reserve(elements_.size());
  restVolumes_.reserve(elements_.size());
  for (const Element& el : elements_) {
    ShapeGradients S = ShapeGradients::Zero(el.nodeCount(), 3);
    double volume = 0.0;
    for (const auto& q : el.quadrature) {
      S += q.weight * q.dNdX;
      volume += q.weight;
    }
    weightedShapeGradients_.push_back(S);
    restVolumes_.push_back(volume);
  }
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
  restIndex_.clear();
  restPiola_.clear();
  if (!linearInFrame()) return;
  restIndex_.reserve(elements_.size());
  restPiola_.reserve(elements_.size());
  // Equal matrices (same bits) are stored once, found by a hash of their bits.
  std::unordered_map<std::uint64_t, std::vector<int>> byHash;
  for (size_t e = 0; e < elements_.size(); ++e) {
    MatX K = restElementStiffness(elements_[e], *linear_, parameters_[e]);
    std::uint64_t h = 1469598103934665603ull ^ static_cast<std::uint64_t>(K.rows());
    for (Eigen::Index i = 0; i < K.size(); ++i) {
      std::uint64_t bits;
      std::memcpy(&bits, K.data() + i, sizeof bits);
      h = (h ^ bits) * 1099511628211ull;
    }
    std::vector<int>& bucket = byHash[h];
    int index = -1;
    for (int candidate : bucket) {
      const MatX& other = restStiffness_[candidate];
      if (other.rows() == K.rows() && std::memcmp(other.data(), K.data(), sizeof(double) * K.size()) == 0) {
        index = candidate;
        break;
      }
    }
    if (index < 0) {
      index = static_cast<int>(restStiffness_.size());
      restStiffness_.push_back(std::move(K));
      bucket.push_back(index);
    }
    restIndex_.push_back(index);
    restPiola_.push_back(linear_->firstPiola(Mat3::Zero(), parameters_[e]));
  }
}

Mat3 ElasticEnergy::averageDeformationGradient(int e, const VecX& x) const {
  const Element& el = elements_[e];
  const ShapeGradients& S = weightedShapeGradients_[e];
  Mat3 F = Mat3::Zero();
  for (int a = 0; a < el.nodeCount(); ++a) {
    const double* xa = x.data() + 3 * el.nodes[a];
    for (int j = 0; j < 3; ++j) {
      const double g = S(a, j);
      for (int k = 0; k < 3; ++k) F(k, j) += xa[k] * g;
    }
  }
  return F / restVolumes_[e];
}

void ElasticEnergy::addFrameGradient(const VecX& x, VecX& gradient) const {
  // Element e's energy is quadratic in y = R^T x_e: gradient R (K0 y + g0).
  const int n = static_cast<int>(elements_.size());
  const int batch = std::min(n, kGradientBatch);
  using NodeForces = Eigen::Matrix<double, 3, kMaxElementNodes>;
  std::vector<NodeForces> forces(batch);
  computeInParallelScatterInOrder(
      n, std::max(batch, 1), threads_,
      [&](int e, int slot) {
        const Element& el = elements_[e];
        const int nodes = el.nodeCount();
        const Mat3& R = rotations_[e];
        Eigen::Matrix<double, 3 * kMaxElementNodes, 1> y(3 * nodes);
        for (int a = 0; a < nodes; ++a) y.segment<3>(3 * a).noalias() = R.transpose() * x.segment<3>(3 * el.nodes[a]);
        Eigen::Matrix<double, 3 * kMaxElementNodes, 1> g(3 * nodes);
        g.noalias() = restStiffnessOf(e) * y;
        const ShapeGradients& S = weightedShapeGradients_[e];
        for (int a = 0; a < nodes; ++a)
          forces[slot].col(a).noalias() = R * (g.segment<3>(3 * a) + restPiola_[e] * S.row(a).transpose());
      },
      [&](int e, int slot) {
        const Element& el = elements_[e];
        for (int a = 0; a < el.nodeCount(); ++a) gradient.segment<3>(3 * el.nodes[a]) += forces[slot].col(a);
      },
      gradientElementsPerThread());
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
  if (gradient && linearInFrame() && packedTets_.empty()) {
    // General elements of a linear-in-frame model: the gradient from the rest stiffness
    // (the energy, when wanted, from the quadrature loop: same bits as energy()).
    const double total = wantEnergy ? evaluate(x, nullptr, true) : 0.0;
    addFrameGradient(x, *gradient);
    return total;
  }
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

void ElasticEnergy::addRotatedRestStiffness(const std::vector<Mat3>& frames, BlockAssembler& H) const {
  if (!gather_.empty() && H.pattern().fingerprint() == gather_.fingerprint()) {
    gather_.add([this](int e) -> const MatX& { return restStiffnessOf(e); }, frames, threads_, H);
    return;
  }
  addElementHessians(
      elements_, threads_, [&](int e, MatX& out) { rotatedStiffness(restStiffnessOf(e), frames[e], out); },
      blockPositionsFor(H), H);
}

void ElasticEnergy::addHessian(const VecX& x, BlockAssembler& H, EigenvalueFilter filter, double filterEpsilon) const {
  const auto positions = blockPositionsFor(H);
  // Linear elasticity (also in the warped element frame) has constant PSD element
  // Hessians: rotate the cached rest stiffness.
  if (linearInFrame()) {
    addRotatedRestStiffness(rotations_, H);
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
  gather_ = linearInFrame() ? RotatedStiffnessGather(elements_, pattern) : RotatedStiffnessGather();
}

std::function<const int*(int)> ElasticEnergy::blockPositionsFor(const BlockAssembler& assembler) const {
  if (!hasBlockPositions_ || assembler.pattern().fingerprint() != positionsFingerprint_)
    return [](int) -> const int* { return nullptr; };
  return [this](int e) { return blockPositions_.data() + blockOffsets_[e]; };
}

}  // namespace softfit

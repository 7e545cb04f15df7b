#include "cuda/packed_newmark_model_builder.h"

#include <algorithm>
#include <stdexcept>

#include "forward/errors.h"
#include "forward/energies/elastic_energy.h"
#include "forward/materials/material.h"

namespace softfit::gpu {

namespace {

int findBlock(const PackedNewmarkModel& p, int row, int col) {
  const auto begin = p.column.begin() + p.rowStart[row];
  const auto end = p.column.begin() + p.rowStart[row + 1];
  const auto it = std::lower_bound(begin, end, col);
  if (it == end || *it != col) throw std::logic_error("packNewmarkModel: block not in sparsity pattern");
  return static_cast<int>(it - p.column.begin());
}

// CSR lists from (key, value) pairs in insertion order (a stable counting sort).
template <typename Value>
void buildLists(int keys, const std::vector<int>& key, const std::vector<Value>& value, std::vector<int>& start,
                std::vector<Value>& out) {
  start.assign(keys + 1, 0);
  for (int k : key) ++start[k + 1];
  for (int i = 0; i < keys; ++i) start[i + 1] += start[i];
  out.resize(key.size());
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (size_t i = 0; i < key.size(); ++i) out[fill[key[i]]++] = value[i];
}

void packPattern(const BlockSparsePattern& pattern, PackedNewmarkModel& p) {
  const SparseMatrix zero = pattern.zeroMatrix();
  const int N = pattern.nodeCount();
  p.rowStart.assign(N + 1, 0);
  p.column.clear();
  p.blockRow.clear();
  p.diagonal.assign(N, -1);
  // Column 3c holds rows 3r + {0,1,2} for every coupled node r (ascending); by symmetry
  // these are block-row c's columns.
  for (int c = 0; c < N; ++c) {
    for (SparseMatrix::InnerIterator it(zero, 3 * c); it; ++it)
      if (it.row() % 3 == 0) {
        const int r = static_cast<int>(it.row() / 3);
        if (r == c) p.diagonal[c] = static_cast<int>(p.column.size());
        p.column.push_back(r);
        p.blockRow.push_back(c);
      }
    p.rowStart[c + 1] = static_cast<int>(p.column.size());
  }
}

}  // namespace

PackedNewmarkModel packNewmarkModel(const PhysicalModel& model) {
  const ElasticEnergy& elastic = model.elastic();
  const MaterialModel m = elastic.model();
  if (m != MaterialModel::Linear && m != MaterialModel::WarpedCorotated)
    throw InputError("integrator.type = \"newmark_theta\" on the GPU needs material.model \"linear\" or "
                     "\"warped_corotated\" (got \"" + materialModelName(m) + "\")");
  PackedNewmarkModel p;
  p.nodeCount = model.nodeCount();
  p.elementCount = static_cast<int>(elastic.elements().size());
  p.warped = elastic.usesElementRotations();
  packPattern(model.pattern(), p);

  const std::unique_ptr<Material> linear = makeMaterial(MaterialModel::Linear);
  const auto& elements = elastic.elements();
  const auto& lame = elastic.parameters();
  p.slotStart.assign(1, 0);
  p.quadratureStart.assign(1, 0);
  std::vector<int> blockKey, blockValueElement, blockValueOffset;
  for (int e = 0; e < p.elementCount; ++e) {
    const Element& el = elements[e];
    const int n = el.nodeCount();
    p.lame.push_back(lame[e].mu);
    p.lame.push_back(lame[e].lambda);
    const MatX K0 = restElementStiffness(el, *linear, lame[e]);
    const int k0 = static_cast<int>(p.stiffness.size());
    p.stiffnessStart.push_back(k0);
    for (int r = 0; r < 3 * n; ++r)
      for (int c = 0; c < 3 * n; ++c) p.stiffness.push_back(K0(r, c));
    const double volume = el.restVolume();
    const double c0 = 2.0 * lame[e].mu + 3.0 * lame[e].lambda;
    for (int a = 0; a < n; ++a) {
      p.slotNode.push_back(el.nodes[a]);
      Vec3 g = Vec3::Zero();
      double mw = 0.0;
      for (const auto& q : el.quadrature) {
        g += q.weight * q.dNdX.row(a).transpose();
        mw += q.weight * q.N[a];
      }
      for (int k = 0; k < 3; ++k) {
        p.averageGradient.push_back(g[k] / volume);
        p.restForceShape.push_back(c0 * g[k]);
      }
      p.massWeight.push_back(mw);
    }
    p.slotStart.push_back(static_cast<int>(p.slotNode.size()));
    for (const auto& q : el.quadrature) {
      p.quadratureWeight.push_back(q.weight);
      p.shapeGradientStart.push_back(static_cast<int>(p.shapeGradient.size()));
      for (int a = 0; a < n; ++a)
        for (int k = 0; k < 3; ++k) p.shapeGradient.push_back(q.dNdX(a, k));
    }
    p.quadratureStart.push_back(static_cast<int>(p.quadratureWeight.size()));
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        blockKey.push_back(findBlock(p, el.nodes[a], el.nodes[b]));
        blockValueElement.push_back(e);
        blockValueOffset.push_back(k0 + 3 * a * 3 * n + 3 * b);
      }
  }
  std::vector<int> unused;
  buildLists(p.blockCount(), blockKey, blockValueElement, p.blockContributionStart, p.contributionElement);
  buildLists(p.blockCount(), blockKey, blockValueOffset, unused, p.contributionOffset);
  std::vector<int> slots(p.slotNode.size());
  for (size_t s = 0; s < slots.size(); ++s) slots[s] = static_cast<int>(s);
  buildLists(p.nodeCount, p.slotNode, slots, p.nodeSlotStart, p.nodeSlot);

  const VecX& X = model.restPositions();
  const VecX& M = model.mass();
  p.rest.assign(X.data(), X.data() + X.size());
  p.mass.assign(M.data(), M.data() + M.size());
  p.springStiffness.assign(p.nodeCount, 0.0);
  p.springForce.assign(3 * p.nodeCount, 0.0);
  for (const auto& s : model.attachments.springs()) {
    p.springStiffness[s.node] += s.stiffness;
    for (int k = 0; k < 3; ++k) p.springForce[3 * s.node + k] += s.stiffness * (s.target[k] - X[3 * s.node + k]);
  }
  p.fixed = model.fixedDofs();
  p.hasFixed = std::any_of(p.fixed.begin(), p.fixed.end(), [](char f) { return f != 0; });

  p.pointStart.assign(1, 0);
  if (model.ground) {
    const auto& points = model.ground->points();
    p.pointCount = static_cast<int>(points.size());
    std::vector<int> contactKey, contactPoint;
    std::vector<double> contactWeight;
    for (int i = 0; i < p.pointCount; ++i) {
      const ContactPoint& cp = points[i];
      p.pointArea.push_back(cp.area);
      for (size_t a = 0; a < cp.nodes.size(); ++a) {
        p.pointNode.push_back(cp.nodes[a]);
        p.pointWeight.push_back(cp.weights[a]);
        p.entryPoint.push_back(i);
        for (size_t b = 0; b < cp.nodes.size(); ++b) {
          contactKey.push_back(findBlock(p, cp.nodes[a], cp.nodes[b]));
          contactPoint.push_back(i);
          contactWeight.push_back(cp.weights[a] * cp.weights[b]);
        }
      }
      p.pointStart.push_back(static_cast<int>(p.pointNode.size()));
    }
    buildLists(p.blockCount(), contactKey, contactPoint, p.blockContactStart, p.blockContactPoint);
    buildLists(p.blockCount(), contactKey, contactWeight, unused, p.blockContactWeight);
    std::vector<int> entries(p.pointNode.size());
    for (size_t i = 0; i < entries.size(); ++i) entries[i] = static_cast<int>(i);
    buildLists(p.nodeCount, p.pointNode, entries, p.nodeEntryStart, p.nodeEntry);
  } else {
    p.blockContactStart.assign(p.blockCount() + 1, 0);
    p.nodeEntryStart.assign(p.nodeCount + 1, 0);
  }
  return p;
}

SparseMatrix unpackBsr(const PackedNewmarkModel& packed, const BlockSparsePattern& pattern,
                       const std::vector<double>& blockValues) {
  SparseMatrix A = pattern.zeroMatrix();
  BlockAssembler assembler(pattern, A);
  for (int i = 0; i < packed.nodeCount; ++i)
    for (int k = packed.rowStart[i]; k < packed.rowStart[i + 1]; ++k) {
      Mat3 block;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) block(r, c) = blockValues[9 * k + 3 * r + c];
      assembler.addBlock(i, packed.column[k], block);
    }
  return A;
}

}  // namespace softfit::gpu

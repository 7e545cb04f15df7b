#pragma once
// Flat arrays the Newmark kernels consume, packed on the host from a PhysicalModel
// (packNewmarkModel in packed_newmark_model_builder.h). This header has no Eigen and no
// CUDA so nvcc and the host compiler both include it.
//
// Matrices are 3x3-block CSR (BSR) with the fixed structure of the CPU
// BlockSparsePattern (row i lists the nodes coupled with node i, ascending; the pattern
// is symmetric, so this is the CPU's block-column list). Each block is 9 values,
// row-major. Assembly is a gather: every block sums a fixed list of element (and
// contact-point) contributions in a fixed order, so it needs no atomics and is
// deterministic.
#include <vector>

namespace softfit::gpu {

struct PackedNewmarkModel {
  int nodeCount = 0;
  int elementCount = 0;
  bool warped = false;  // MaterialModel::WarpedCorotated (element rotations) vs Linear

  // ---- BSR pattern ----
  std::vector<int> rowStart;   // nodeCount + 1
  std::vector<int> column;     // per block: column node
  std::vector<int> diagonal;   // per node: index of its diagonal block
  std::vector<int> blockRow;   // per block: row node

  // ---- Elements (slot = one element-node pair, numbered element by element) ----
  std::vector<int> slotStart;        // elementCount + 1: element e owns slots [slotStart[e], slotStart[e+1])
  std::vector<int> slotNode;         // per slot: global node
  std::vector<double> lame;          // per element: mu, lambda
  std::vector<int> stiffnessStart;   // per element: offset of K0_e, (3n x 3n) row-major
  std::vector<double> stiffness;     // rest element stiffness (linear elasticity, identity frame)
  std::vector<double> averageGradient;  // per slot: (1/V) sum_q w_q dN_a/dX (3 values)
  std::vector<double> restForceShape;   // per slot: (2 mu + 3 lambda) sum_q w_q dN_a/dX (3)
  std::vector<double> massWeight;       // per slot: sum_q w_q N_a (lumped mass per density)
  std::vector<int> quadratureStart;     // elementCount + 1
  std::vector<double> quadratureWeight;  // per point
  std::vector<double> shapeGradient;    // per point: n x 3 (dN_a/dX row-major), n = element's node count
  std::vector<int> shapeGradientStart;  // per point: offset into shapeGradient

  // ---- Stiffness gather: block k sums R_e K0_e(a, b) R_e^T over its contributions ----
  std::vector<int> blockContributionStart;  // blocks + 1
  std::vector<int> contributionElement;
  std::vector<int> contributionOffset;      // offset of block (a, b) in `stiffness` (row stride 3n)

  // ---- Node gather of per-slot vectors ----
  std::vector<int> nodeSlotStart;  // nodeCount + 1
  std::vector<int> nodeSlot;

  // ---- Per node / per dof ----
  std::vector<double> rest;            // 3N rest positions
  std::vector<double> mass;            // 3N lumped mass per dof
  std::vector<double> springStiffness; // per node: sum of attachment spring stiffnesses
  std::vector<double> springForce;     // 3N: sum k (target - X)
  std::vector<char> fixed;             // 3N Dirichlet mask
  bool hasFixed = false;

  // ---- Ground contact points p = sum_a w_a x_a (CSR over points) ----
  int pointCount = 0;
  std::vector<int> pointStart;     // pointCount + 1
  std::vector<int> pointNode;      // per point entry
  std::vector<double> pointWeight; // per point entry
  std::vector<double> pointArea;   // per point: ContactPoint::area
  std::vector<int> nodeEntryStart; // nodeCount + 1: point entries touching each node
  std::vector<int> nodeEntry;
  std::vector<int> entryPoint;     // per point entry: its point
  // Contact Hessian gather: block k sums w_a w_b J_p over (point, w_a w_b) pairs.
  std::vector<int> blockContactStart;  // blocks + 1
  std::vector<int> blockContactPoint;
  std::vector<double> blockContactWeight;

  int blockCount() const { return static_cast<int>(column.size()); }
  int slotCount() const { return static_cast<int>(slotNode.size()); }
};

// Per-step scalars (read from the model every step, so changing them needs no repack).
struct NewmarkStepParameters {
  double dt = 0.01;
  double theta = 0.6;
  double alpha1 = 0.0, alpha2 = 0.0;
  double gravity[3] = {0, 0, 0};
  bool contact = false;
  double normal[3] = {0, 1, 0};
  double offset = 0.0, stiffness = 0.0, sharpness = 1.0;
  double pcgTolerance = 1e-12;
  int maxPcgIterations = 20000;
};

struct PcgReport {
  int iterations = 0;
  double relativeResidual = 0.0;
  bool converged = false;
};

// What one adjoint step adds (the host integrator accumulates it into StepAdjoint).
struct NewmarkAdjointOutputs {
  std::vector<double> xBar, vBar;  // 3N: dL/dx_n, dL/dv_n contributions
  std::vector<double> muBar, lambdaBar, densityBar;  // per element
  double alpha1 = 0.0, alpha2 = 0.0;
  double gravity[3] = {0, 0, 0};
  double normal[3] = {0, 0, 0};
  double offset = 0.0;
  PcgReport solve;
};

}  // namespace softfit::gpu

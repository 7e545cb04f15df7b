#pragma once
// Per-item bodies of the Newmark-theta step and its adjoint (one element, block, node,
// contact point or dof each), as functors with a SOFTFIT_HD operator(). The CUDA backend
// launches them one thread per item (cuda_executor.cuh); the host-emulated backend
// loops over them (host_executor.h). Reductions return Sums<K>, which the executors
// combine in a fixed tree order (deterministic, no atomics).
//
// The equations are those of forward/integrators/newmark_theta_integrator.cpp and
// newmark_theta_adjoint.cpp (docs/theory.rst, sections 2-4), term by term.
#include "cuda/device_math.h"

namespace softfit::gpu {

template <int K>
struct Sums {
  double v[K];
};

// Device pointers of the packed model (PackedNewmarkModel), values in precision T.
template <typename T>
struct ModelView {
  int nodeCount = 0, elementCount = 0, blockCount = 0, pointCount = 0;
  bool warped = false;
  const int *rowStart, *column, *diagonal;
  const int *slotStart, *slotNode;
  const T* lame;
  const int* stiffnessStart;
  const T *stiffness, *averageGradient, *restForceShape, *massWeight;
  const int* quadratureStart;
  const T *quadratureWeight, *shapeGradient;
  const int* shapeGradientStart;
  const int *blockContributionStart, *contributionElement, *contributionOffset;
  const int *nodeSlotStart, *nodeSlot;
  const T *rest, *mass, *springStiffness, *springForce;
  const char* fixed;
  const int *pointStart, *pointNode;
  const T* pointWeight;
  const T* pointArea;  // per point: the rest-surface area A_p (stiffness k A_p)
  const int *nodeEntryStart, *nodeEntry, *entryPoint;
  const int *blockContactStart, *blockContactPoint;
  const T* blockContactWeight;
  const int* blockRow;  // per block: its row node
};

// Step scalars in precision T.
template <typename T>
struct StepScalars {
  T dt, theta, a, alpha1, alpha2;
  T gravity[3];
  bool contact;
  T normal[3];
  T offset, stiffness, sharpness;
};

template <typename T>
SOFTFIT_HD inline V3<T> load3(const T* v, int i) {
  return V3<T>{{v[3 * i], v[3 * i + 1], v[3 * i + 2]}};
}
template <typename T>
SOFTFIT_HD inline M3<T> load9(const T* v, int i) {
  M3<T> m;
  for (int k = 0; k < 9; ++k) m.m[k] = v[9 * i + k];
  return m;
}
template <typename T>
SOFTFIT_HD inline void store9(T* v, int i, const M3<T>& m) {
  for (int k = 0; k < 9; ++k) v[9 * i + k] = m.m[k];
}
// Block row i of a BSR matrix times vec.
template <typename T>
SOFTFIT_HD inline V3<T> rowProduct(const ModelView<T>& M, const T* values, const T* vec, int i) {
  V3<T> y{{T(0), T(0), T(0)}};
  for (int k = M.rowStart[i]; k < M.rowStart[i + 1]; ++k) {
    const T* blk = values + 9 * k;
    const int j = M.column[k];
    const T x0 = vec[3 * j], x1 = vec[3 * j + 1], x2 = vec[3 * j + 2];
    for (int r = 0; r < 3; ++r) y[r] += blk[3 * r] * x0 + blk[3 * r + 1] * x1 + blk[3 * r + 2] * x2;
  }
  return y;
}
// Volume-averaged deformation gradient of element e from positions x.
template <typename T>
SOFTFIT_HD inline M3<T> averageDeformationGradient(const ModelView<T>& M, const T* x, int e) {
  M3<T> F = M3<T>::zero();
  for (int s = M.slotStart[e]; s < M.slotStart[e + 1]; ++s) {
    const V3<T> xa = load3(x, M.slotNode[s]);
    const V3<T> g = load3(M.averageGradient, s);
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j) F(k, j) += xa[k] * g[j];
  }
  return F;
}
// F_q = sum_a x_a dN_a^T at quadrature point q of element e.
template <typename T>
SOFTFIT_HD inline M3<T> pointDeformationGradient(const ModelView<T>& M, const T* x, int e, int q) {
  M3<T> F = M3<T>::zero();
  const T* dN = M.shapeGradient + M.shapeGradientStart[q];
  for (int s = M.slotStart[e], a = 0; s < M.slotStart[e + 1]; ++s, ++a) {
    const V3<T> xa = load3(x, M.slotNode[s]);
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j) F(k, j) += xa[k] * dN[3 * a + j];
  }
  return F;
}
template <typename T>
SOFTFIT_HD inline M3<T> stiffnessBlock(const T* K0, int stride) {
  M3<T> b;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) b(r, c) = K0[r * stride + c];
  return b;
}
template <typename T>
SOFTFIT_HD inline int nodesOf(const ModelView<T>& M, int e) {
  return M.slotStart[e + 1] - M.slotStart[e];
}

// ---- Forward step ----

// u = x - X (per dof).
template <typename T>
struct Displacement {
  const T *x, *rest;
  T* u;
  SOFTFIT_HD void operator()(int i) const { u[i] = x[i] - rest[i]; }
};

// R_e = polar(F_avg(x)) (per element; warped corotation only).
template <typename T>
struct ElementRotations {
  ModelView<T> M;
  const T* x;
  T* R;
  SOFTFIT_HD void operator()(int e) const { store9(R, e, polarRotation3(averageDeformationGradient(M, x, e))); }
};

// K block k = sum over contributions of R_e K0_e(a, b) R_e^T (per block).
template <typename T>
struct AssembleStiffness {
  ModelView<T> M;
  const T* R;  // null: identity frames
  T* K;
  SOFTFIT_HD void operator()(int k) const {
    M3<T> sum = M3<T>::zero();
    for (int c = M.blockContributionStart[k]; c < M.blockContributionStart[k + 1]; ++c) {
      const int e = M.contributionElement[c];
      const M3<T> K0 = stiffnessBlock(M.stiffness + M.contributionOffset[c], 3 * nodesOf(M, e));
      if (R) {
        const M3<T> Re = load9(R, e);
        const M3<T> blk = multiplyByTransposed(multiply(Re, K0), Re);
        for (int i = 0; i < 9; ++i) sum.m[i] += blk.m[i];
      } else {
        for (int i = 0; i < 9; ++i) sum.m[i] += K0.m[i];
      }
    }
    store9(K, k, sum);
  }
};

// Warped corotation's constant force -grad E_w(X; R) = R c_a - sum_b R K0_ab R^T X_b
// per element node (per element, into slot vectors).
template <typename T>
struct ElasticRestForce {
  ModelView<T> M;
  const T* R;
  T* slotVector;
  SOFTFIT_HD void operator()(int e) const {
    const M3<T> Re = load9(R, e);
    const int n = nodesOf(M, e), s0 = M.slotStart[e];
    const T* K0 = M.stiffness + M.stiffnessStart[e];
    for (int a = 0; a < n; ++a) {
      V3<T> w = load3(M.restForceShape, s0 + a);
      for (int b = 0; b < n; ++b) {
        const V3<T> y = multiplyTransposed(Re, load3(M.rest, M.slotNode[s0 + b]));
        const V3<T> ky = multiply(stiffnessBlock(K0 + 3 * a * 3 * n + 3 * b, 3 * n), y);
        for (int k = 0; k < 3; ++k) w[k] -= ky[k];
      }
      const V3<T> f = multiply(Re, w);
      for (int k = 0; k < 3; ++k) slotVector[3 * (s0 + a) + k] = f[k];
    }
  }
};

template <typename T>
SOFTFIT_HD inline V3<T> pointValue(const ModelView<T>& M, const T* v, int p) {
  V3<T> q{{T(0), T(0), T(0)}};
  for (int i = M.pointStart[p]; i < M.pointStart[p + 1]; ++i) {
    const V3<T> va = load3(v, M.pointNode[i]);
    for (int k = 0; k < 3; ++k) q[k] += M.pointWeight[i] * va[k];
  }
  return q;
}
template <typename T>
SOFTFIT_HD inline T dot3(const T* n, const V3<T>& v) {
  return n[0] * v[0] + n[1] * v[1] + n[2] * v[2];
}

// Semi-implicit contact per point: load = dt k (s1 n.(u_p + (1-theta) dt v_p) - s0) (times
// n) into b, J = dt k s1 (times w_a w_b n n^T) into A.
template <typename T>
struct ContactLoads {
  ModelView<T> M;
  StepScalars<T> S;
  const T *x, *u, *v;
  T *pointLoad, *pointJacobian;
  SOFTFIT_HD void operator()(int p) const {
    const T d = dot3(S.normal, pointValue(M, x, p)) + S.offset;
    const T s0 = softminZero(d, S.sharpness), s1 = softminZeroDerivative(d, S.sharpness);
    const V3<T> up = pointValue(M, u, p), vp = pointValue(M, v, p);
    V3<T> q;
    for (int k = 0; k < 3; ++k) q[k] = up[k] + (T(1) - S.theta) * S.dt * vp[k];
    const T k = S.stiffness * M.pointArea[p];
    pointLoad[p] = S.dt * k * (s1 * dot3(S.normal, q) - s0);
    pointJacobian[p] = S.dt * k * s1;
  }
};

// A = (theta dt + alpha2) K + diag((a + alpha1) m + theta dt k_spring) + contact (per block).
template <typename T>
struct AssembleSystem {
  ModelView<T> M;
  StepScalars<T> S;
  const T *K, *pointJacobian;
  T* A;
  SOFTFIT_HD void operator()(int k) const {
    const T c = S.theta * S.dt, c2 = S.alpha2;
    M3<T> blk;
    for (int i = 0; i < 9; ++i) blk.m[i] = c * K[9 * k + i] + c2 * K[9 * k + i];
    const int i = M.blockRow[k];
    if (M.diagonal[i] == k)
      for (int r = 0; r < 3; ++r)
        blk(r, r) += (S.a + S.alpha1) * M.mass[3 * i + r] + c * M.springStiffness[i];
    if (S.contact) {
      T j = T(0);
      for (int t = M.blockContactStart[k]; t < M.blockContactStart[k + 1]; ++t)
        j += M.blockContactWeight[t] * pointJacobian[M.blockContactPoint[t]];
      for (int r = 0; r < 3; ++r)
        for (int cc = 0; cc < 3; ++cc) blk(r, cc) += j * S.normal[r] * S.normal[cc];
    }
    store9(A, k, blk);
  }
};

// b = (a + alpha1) m u - (1 - theta) dt (K u + k_s u) + alpha2 K u + m v / theta + dt f
//     + contact loads, f = elastic rest force + m g + spring force (per node).
template <typename T>
struct RightHandSide {
  ModelView<T> M;
  StepScalars<T> S;
  const T *K, *u, *v, *slotVector, *pointLoad;
  T* b;
  SOFTFIT_HD void operator()(int i) const {
    const V3<T> Ku = rowProduct(M, K, u, i);
    V3<T> f;
    for (int k = 0; k < 3; ++k) f[k] = T(0);
    if (M.warped)
      for (int t = M.nodeSlotStart[i]; t < M.nodeSlotStart[i + 1]; ++t)
        for (int k = 0; k < 3; ++k) f[k] += slotVector[3 * M.nodeSlot[t] + k];
    T contact = T(0);
    if (S.contact)
      for (int t = M.nodeEntryStart[i]; t < M.nodeEntryStart[i + 1]; ++t) {
        const int entry = M.nodeEntry[t];
        contact += M.pointWeight[entry] * pointLoad[M.entryPoint[entry]];
      }
    for (int k = 0; k < 3; ++k) {
      const int d = 3 * i + k;
      const T m = M.mass[d];
      f[k] += m * S.gravity[k] + M.springForce[d];
      b[d] = (S.a + S.alpha1) * m * u[d] - (T(1) - S.theta) * S.dt * (Ku[k] + M.springStiffness[i] * u[d]) +
             S.alpha2 * Ku[k] + m * v[d] / S.theta + S.dt * f[k] + contact * S.normal[k];
    }
  }
};

// Symmetric Dirichlet elimination (forward/solvers/dirichlet_elimination.cpp) on block
// row i: b_f -= A_fc value_c, constrained rows/columns zeroed with 1 on the diagonal,
// b_c = value_c. Each thread touches only its own row, so it runs in place.
template <typename T>
struct EliminateDirichlet {
  ModelView<T> M;
  const T* values;  // prescribed displacement per dof (read at fixed dofs only)
  T *A, *b;
  SOFTFIT_HD void operator()(int i) const {
    for (int r = 0; r < 3; ++r) {
      const int row = 3 * i + r;
      if (M.fixed[row]) continue;
      T correction = T(0);
      for (int k = M.rowStart[i]; k < M.rowStart[i + 1]; ++k)
        for (int c = 0; c < 3; ++c) {
          const int col = 3 * M.column[k] + c;
          if (M.fixed[col]) correction += A[9 * k + 3 * r + c] * values[col];
        }
      b[row] -= correction;
    }
    for (int k = M.rowStart[i]; k < M.rowStart[i + 1]; ++k)
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
          const int row = 3 * i + r, col = 3 * M.column[k] + c;
          if (M.fixed[row] || M.fixed[col]) A[9 * k + 3 * r + c] = (row == col) ? T(1) : T(0);
        }
    for (int r = 0; r < 3; ++r)
      if (M.fixed[3 * i + r]) b[3 * i + r] = values[3 * i + r];
  }
};

// ---- Block-Jacobi preconditioned CG ----

// Inverse diagonal blocks; returns 1 for a singular block.
template <typename T>
struct BlockJacobi {
  ModelView<T> M;
  const T* A;
  T* inverse;
  SOFTFIT_HD Sums<1> operator()(int i) const {
    M3<T> inv;
    const bool ok = invert(load9(A, M.diagonal[i]), inv);
    if (!ok) inv = M3<T>::zero();
    store9(inverse, i, inv);
    return Sums<1>{{ok ? 0.0 : 1.0}};
  }
};

// r = b - A x, z = P r, p = z; returns (r.z, r.r, b.b).
template <typename T>
struct PcgStart {
  ModelView<T> M;
  const T *A, *x, *b, *inverse;
  T *r, *z, *p;
  SOFTFIT_HD Sums<3> operator()(int i) const {
    const V3<T> Ax = rowProduct(M, A, x, i);
    V3<T> ri;
    for (int k = 0; k < 3; ++k) ri[k] = b[3 * i + k] - Ax[k];
    const V3<T> zi = multiply(load9(inverse, i), ri);
    Sums<3> s{{0.0, 0.0, 0.0}};
    for (int k = 0; k < 3; ++k) {
      r[3 * i + k] = ri[k];
      z[3 * i + k] = zi[k];
      p[3 * i + k] = zi[k];
      s.v[0] += double(ri[k]) * double(zi[k]);
      s.v[1] += double(ri[k]) * double(ri[k]);
      s.v[2] += double(b[3 * i + k]) * double(b[3 * i + k]);
    }
    return s;
  }
};

// Ap = A p; returns p.Ap.
template <typename T>
struct PcgProduct {
  ModelView<T> M;
  const T *A, *p;
  T* Ap;
  SOFTFIT_HD Sums<1> operator()(int i) const {
    const V3<T> y = rowProduct(M, A, p, i);
    double s = 0.0;
    for (int k = 0; k < 3; ++k) {
      Ap[3 * i + k] = y[k];
      s += double(p[3 * i + k]) * double(y[k]);
    }
    return Sums<1>{{s}};
  }
};

// x += alpha p, r -= alpha Ap, z = P r; returns (r.z, r.r).
template <typename T>
struct PcgUpdate {
  ModelView<T> M;
  T alpha;
  const T *p, *Ap, *inverse;
  T *x, *r, *z;
  SOFTFIT_HD Sums<2> operator()(int i) const {
    V3<T> ri;
    for (int k = 0; k < 3; ++k) {
      const int d = 3 * i + k;
      x[d] += alpha * p[d];
      r[d] -= alpha * Ap[d];
      ri[k] = r[d];
    }
    const V3<T> zi = multiply(load9(inverse, i), ri);
    Sums<2> s{{0.0, 0.0}};
    for (int k = 0; k < 3; ++k) {
      z[3 * i + k] = zi[k];
      s.v[0] += double(ri[k]) * double(zi[k]);
      s.v[1] += double(ri[k]) * double(ri[k]);
    }
    return s;
  }
};

// p = z + beta p (per dof).
template <typename T>
struct PcgDirection {
  T beta;
  const T* z;
  T* p;
  SOFTFIT_HD void operator()(int d) const { p[d] = z[d] + beta * p[d]; }
};

// ---- Adjoint ----

// du = x' - x_n, x_mix = x_n + theta du (per dof).
template <typename T>
struct AdjointStates {
  T theta;
  const T *x, *xNext, *rest;
  T *du, *xMix;
  SOFTFIT_HD void operator()(int d) const {
    const T un = x[d] - rest[d], unext = xNext[d] - rest[d];
    du[d] = unext - un;
    xMix[d] = rest[d] + theta * unext + (T(1) - theta) * un;
  }
};

// d/dR of <R^T Lam, C(R^T G)> minus offset * C(I) (elastic_energy_adjoint.cpp).
template <typename T>
SOFTFIT_HD inline M3<T> frameGradient(const M3<T>& Lam, const M3<T>& G, const M3<T>& R, T mu, T la, T offset) {
  const T trL = trace(multiplyTransposed(R, Lam));
  const T trG = trace(multiplyTransposed(R, G));
  const M3<T> RtG = multiplyTransposed(R, G), RtL = multiplyTransposed(R, Lam);
  const M3<T> a = multiply(Lam, RtG), b = multiply(G, RtL);
  M3<T> out;
  for (int i = 0; i < 9; ++i)
    out.m[i] = mu * (a.m[i] + b.m[i]) + la * (trL * G.m[i] + trG * Lam.m[i]) - offset * (T(2) * mu + T(3) * la) * Lam.m[i];
  return out;
}

// Per element: Lame-parameter adjoints of -dt lambda^T grad E_w(x_mix; R) and
// -alpha2 lambda^T K_w(R) du, and (warped) the frame adjoint chained through the
// polar derivative at F_avg(x_n) into slot vectors.
template <typename T>
struct ElementAdjoint {
  ModelView<T> M;
  StepScalars<T> S;
  const T *R, *x, *xMix, *du, *lambda;  // R null: identity frames (linear material)
  T *slotVector, *muBar, *lambdaBar;
  SOFTFIT_HD void operator()(int e) const {
    const M3<T> Re = R ? load9(R, e) : M3<T>::identity();
    const T mu = M.lame[2 * e], la = M.lame[2 * e + 1];
    M3<T> dR = M3<T>::zero();
    T mb = T(0), lb = T(0);
    for (int q = M.quadratureStart[e]; q < M.quadratureStart[e + 1]; ++q) {
      const T w = M.quadratureWeight[q];
      const M3<T> Lam = pointDeformationGradient(M, lambda, e, q);
      const M3<T> Gx = pointDeformationGradient(M, xMix, e, q);
      const M3<T> Gd = pointDeformationGradient(M, du, e, q);
      // damping: lambda^T K_w du = sum w <R^T Lam, C(R^T Gd)>
      const M3<T> L = multiplyTransposed(Re, Lam), G = multiplyTransposed(Re, Gd);
      T lg = T(0);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) lg += L(r, c) * (G(r, c) + G(c, r));
      mb += -S.alpha2 * w * lg;
      lb += -S.alpha2 * w * trace(L) * trace(G);
      // elastic: dP/dmu = 2 eps, dP/dlambda = tr(eps) I at eps = sym(R^T Gx) - I
      const M3<T> RtF = multiplyTransposed(Re, Gx);
      M3<T> eps;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) eps(r, c) = T(0.5) * (RtF(r, c) + RtF(c, r)) - (r == c ? T(1) : T(0));
      const M3<T> Reps = multiply(Re, eps);
      mb += -S.dt * w * T(2) * frobenius(Lam, Reps);
      lb += -S.dt * w * trace(eps) * trace(L);
      if (R) {
        const M3<T> ge = frameGradient(Lam, Gx, Re, mu, la, T(1));
        const M3<T> gd = frameGradient(Lam, Gd, Re, mu, la, T(0));
        for (int i = 0; i < 9; ++i) dR.m[i] += w * (-S.dt * ge.m[i] + -S.alpha2 * gd.m[i]);
      }
    }
    muBar[e] = mb;
    lambdaBar[e] = lb;
    if (R) {
      const Svd3<T> svd = signedSvd3(averageDeformationGradient(M, x, e));
      const M3<T> dF = polarRotationAdjoint(svd, dR);
      for (int s = M.slotStart[e]; s < M.slotStart[e + 1]; ++s) {
        const V3<T> g = multiply(dF, load3(M.averageGradient, s));
        for (int k = 0; k < 3; ++k) slotVector[3 * s + k] = g[k];
      }
    }
  }
};

// Contact per point: the terms of dt lambda^T [J+(x_n) q - f_c(x_n)], q = du - (1-theta) dt v_n.
// pointX / pointV: coefficients of w_a n in dL/dx_n, dL/dv_n; returns (normal, offset) adjoints.
template <typename T>
struct ContactAdjoint {
  ModelView<T> M;
  StepScalars<T> S;
  const T *x, *du, *v, *lambda;
  T *pointX, *pointV;
  SOFTFIT_HD Sums<4> operator()(int p) const {
    const V3<T> xp = pointValue(M, x, p), lp = pointValue(M, lambda, p);
    const V3<T> dup = pointValue(M, du, p), vp = pointValue(M, v, p);
    V3<T> qp;
    for (int k = 0; k < 3; ++k) qp[k] = dup[k] - (T(1) - S.theta) * S.dt * vp[k];
    const T k = S.stiffness * M.pointArea[p], dt = S.dt;
    const T d = dot3(S.normal, xp) + S.offset;
    const T s0 = softminZero(d, S.sharpness), s1 = softminZeroDerivative(d, S.sharpness);
    const T s2 = softminZeroSecondDerivative(d, S.sharpness);
    const T nq = dot3(S.normal, qp), nl = dot3(S.normal, lp);
    const T dsdd = k * (s2 * nq * nl + s1 * nl);
    pointX[p] = dt * k * s1 * nl - dt * dsdd;
    pointV[p] = (T(1) - S.theta) * dt * dt * k * s1 * nl;
    Sums<4> s;
    for (int c = 0; c < 3; ++c) s.v[c] = double(-dt * (dsdd * xp[c] + k * s1 * (nl * qp[c] + nq * lp[c]) + k * s0 * lp[c]));
    s.v[3] = double(-dt * dsdd);
    return s;
  }
};

// Per node: dL/dx_n, dL/dv_n contributions and the summed mass adjoint; returns
// (du.(M lambda), du.(K lambda), M lambda) for alpha1, alpha2, gravity.
template <typename T>
struct NodeAdjoint {
  ModelView<T> M;
  StepScalars<T> S;
  const T *K, *lambda, *du, *v, *slotVector, *pointX, *pointV;
  T *xBar, *vBar, *massBarNode;
  SOFTFIT_HD Sums<5> operator()(int i) const {
    const V3<T> Kl = rowProduct(M, K, lambda, i);
    V3<T> frame{{T(0), T(0), T(0)}};
    if (M.warped)
      for (int t = M.nodeSlotStart[i]; t < M.nodeSlotStart[i + 1]; ++t)
        for (int k = 0; k < 3; ++k) frame[k] += slotVector[3 * M.nodeSlot[t] + k];
    T cx = T(0), cv = T(0);
    if (S.contact)
      for (int t = M.nodeEntryStart[i]; t < M.nodeEntryStart[i + 1]; ++t) {
        const int entry = M.nodeEntry[t];
        cx += M.pointWeight[entry] * pointX[M.entryPoint[entry]];
        cv += M.pointWeight[entry] * pointV[M.entryPoint[entry]];
      }
    Sums<5> s{{0.0, 0.0, 0.0, 0.0, 0.0}};
    T massSum = T(0);
    for (int k = 0; k < 3; ++k) {
      const int d = 3 * i + k;
      const T m = M.mass[d], l = lambda[d], ml = m * l;
      xBar[d] = (S.a + S.alpha1) * ml + S.alpha2 * Kl[k] - (T(1) - S.theta) * S.dt * (Kl[k] + M.springStiffness[i] * l) +
                frame[k] + cx * S.normal[k];
      vBar[d] = ml / S.theta + cv * S.normal[k];
      massSum += -((S.a + S.alpha1) * du[d] - v[d] / S.theta) * l + S.dt * S.gravity[k] * l;
      s.v[0] += double(du[d]) * double(ml);
      s.v[1] += double(du[d]) * double(Kl[k]);
      s.v[2 + k] = double(ml);
    }
    massBarNode[i] = massSum;
    return s;
  }
};

// densityBar_e = sum_a (sum_q w_q N_a) massBar(node a) (per element).
template <typename T>
struct DensityAdjoint {
  ModelView<T> M;
  const T* massBarNode;
  T* densityBar;
  SOFTFIT_HD void operator()(int e) const {
    T s = T(0);
    for (int t = M.slotStart[e]; t < M.slotStart[e + 1]; ++t) s += M.massWeight[t] * massBarNode[M.slotNode[t]];
    densityBar[e] = s;
  }
};

}  // namespace softfit::gpu

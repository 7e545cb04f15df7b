#pragma once
// Small fixed-size linear algebra for the Newmark kernels, usable from host C++ and from
// CUDA device code (SOFTFIT_HD). No Eigen here: nvcc compiles this header as is, and the
// host build compiles the very same functions for the host-emulated backend and the
// GPU-free tests. 3x3 matrices are row-major arrays m[3 * row + col].
//
// polarRotation3 is a line-by-line port of the CPU path (forward/math/polar_decomposition.cpp
// on Eigen 3.4's two-sided JacobiSVD: scaling, sweep order, thresholds, 2x2 rotations,
// sign fix and descending sort), so with FMA contraction off (nvcc --fmad=false) the GPU
// rotations agree with the CPU ones to rounding (bitwise on the host).
#include <cmath>

#if defined(__CUDACC__)
#define SOFTFIT_HD __host__ __device__
#else
#define SOFTFIT_HD
#endif

namespace softfit::gpu {

template <typename T>
struct Limits;
template <>
struct Limits<double> {
  SOFTFIT_HD static constexpr double epsilon() { return 2.220446049250313080847e-16; }
  SOFTFIT_HD static constexpr double smallest() { return 2.2250738585072013831e-308; }  // numeric_limits::min
};
template <>
struct Limits<float> {
  SOFTFIT_HD static constexpr float epsilon() { return 1.1920928955078125e-07f; }
  SOFTFIT_HD static constexpr float smallest() { return 1.17549435082228750797e-38f; }
};

template <typename T>
SOFTFIT_HD inline T squareRoot(T x) {
#if defined(__CUDA_ARCH__)
  return ::sqrt(x);
#else
  return std::sqrt(x);
#endif
}
template <typename T>
SOFTFIT_HD inline T absolute(T x) {
  return x < T(0) ? -x : x;
}
template <typename T>
SOFTFIT_HD inline T maximum(T a, T b) {
  return a < b ? b : a;  // numext::maxi
}
template <typename T>
SOFTFIT_HD inline T exponential(T x) {
#if defined(__CUDA_ARCH__)
  return ::exp(x);
#else
  return std::exp(x);
#endif
}
template <typename T>
SOFTFIT_HD inline T logOnePlus(T x) {
#if defined(__CUDA_ARCH__)
  return ::log1p(x);
#else
  return std::log1p(x);
#endif
}

template <typename T>
struct M3 {
  T m[9];
  SOFTFIT_HD T& operator()(int r, int c) { return m[3 * r + c]; }
  SOFTFIT_HD T operator()(int r, int c) const { return m[3 * r + c]; }
  SOFTFIT_HD static M3 zero() {
    M3 a;
    for (int i = 0; i < 9; ++i) a.m[i] = T(0);
    return a;
  }
  SOFTFIT_HD static M3 identity() {
    M3 a = zero();
    a.m[0] = a.m[4] = a.m[8] = T(1);
    return a;
  }
};

template <typename T>
struct V3 {
  T v[3];
  SOFTFIT_HD T& operator[](int i) { return v[i]; }
  SOFTFIT_HD T operator[](int i) const { return v[i]; }
};

template <typename T>
SOFTFIT_HD inline M3<T> multiply(const M3<T>& a, const M3<T>& b) {
  M3<T> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c(i, j) = a(i, 0) * b(0, j) + a(i, 1) * b(1, j) + a(i, 2) * b(2, j);
  return c;
}
template <typename T>  // a^T b
SOFTFIT_HD inline M3<T> multiplyTransposed(const M3<T>& a, const M3<T>& b) {
  M3<T> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c(i, j) = a(0, i) * b(0, j) + a(1, i) * b(1, j) + a(2, i) * b(2, j);
  return c;
}
template <typename T>  // a b^T
SOFTFIT_HD inline M3<T> multiplyByTransposed(const M3<T>& a, const M3<T>& b) {
  M3<T> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c(i, j) = a(i, 0) * b(j, 0) + a(i, 1) * b(j, 1) + a(i, 2) * b(j, 2);
  return c;
}
template <typename T>
SOFTFIT_HD inline M3<T> transposed(const M3<T>& a) {
  M3<T> t;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) t(i, j) = a(j, i);
  return t;
}
template <typename T>
SOFTFIT_HD inline T trace(const M3<T>& a) {
  return a.m[0] + a.m[4] + a.m[8];
}
template <typename T>  // sum_ij a_ij b_ij
SOFTFIT_HD inline T frobenius(const M3<T>& a, const M3<T>& b) {
  T s = T(0);
  for (int i = 0; i < 9; ++i) s += a.m[i] * b.m[i];
  return s;
}
template <typename T>
SOFTFIT_HD inline V3<T> multiply(const M3<T>& a, const V3<T>& x) {
  V3<T> y;
  for (int i = 0; i < 3; ++i) y[i] = a(i, 0) * x[0] + a(i, 1) * x[1] + a(i, 2) * x[2];
  return y;
}
template <typename T>  // a^T x
SOFTFIT_HD inline V3<T> multiplyTransposed(const M3<T>& a, const V3<T>& x) {
  V3<T> y;
  for (int i = 0; i < 3; ++i) y[i] = a(0, i) * x[0] + a(1, i) * x[1] + a(2, i) * x[2];
  return y;
}
template <typename T>
SOFTFIT_HD inline T determinant(const M3<T>& m) {
  // Eigen's 3x3 cofactor expansion along the first column.
  return m(0, 0) * (m(1, 1) * m(2, 2) - m(2, 1) * m(1, 2)) - m(1, 0) * (m(0, 1) * m(2, 2) - m(2, 1) * m(0, 2)) +
         m(2, 0) * (m(0, 1) * m(1, 2) - m(1, 1) * m(0, 2));
}
// Inverse of a 3x3 block (block-Jacobi preconditioner); returns false when singular.
template <typename T>
SOFTFIT_HD inline bool invert(const M3<T>& a, M3<T>& inv) {
  const T c00 = a(1, 1) * a(2, 2) - a(1, 2) * a(2, 1);
  const T c01 = a(1, 2) * a(2, 0) - a(1, 0) * a(2, 2);
  const T c02 = a(1, 0) * a(2, 1) - a(1, 1) * a(2, 0);
  const T det = a(0, 0) * c00 + a(0, 1) * c01 + a(0, 2) * c02;
  if (!(det != T(0))) return false;
  const T s = T(1) / det;
  inv(0, 0) = c00 * s;
  inv(1, 0) = c01 * s;
  inv(2, 0) = c02 * s;
  inv(0, 1) = (a(0, 2) * a(2, 1) - a(0, 1) * a(2, 2)) * s;
  inv(1, 1) = (a(0, 0) * a(2, 2) - a(0, 2) * a(2, 0)) * s;
  inv(2, 1) = (a(0, 1) * a(2, 0) - a(0, 0) * a(2, 1)) * s;
  inv(0, 2) = (a(0, 1) * a(1, 2) - a(0, 2) * a(1, 1)) * s;
  inv(1, 2) = (a(0, 2) * a(1, 0) - a(0, 0) * a(1, 2)) * s;
  inv(2, 2) = (a(0, 0) * a(1, 1) - a(0, 1) * a(1, 0)) * s;
  return true;
}

// ---- Two-sided Jacobi SVD (port of Eigen 3.4 JacobiSVD for a square 3x3) ----

template <typename T>
struct Rotation2 {
  T c, s;
};

// Rows p, q of m: x' = c x + s y, y' = -s x + c y (Eigen applyOnTheLeft).
template <typename T>
SOFTFIT_HD inline void rotateRows(M3<T>& m, int p, int q, Rotation2<T> j) {
  for (int k = 0; k < 3; ++k) {
    const T xi = m(p, k), yi = m(q, k);
    m(p, k) = j.c * xi + j.s * yi;
    m(q, k) = -j.s * xi + j.c * yi;
  }
}
// Columns p, q of m by J (Eigen applyOnTheRight: rotation in the plane by J^T).
template <typename T>
SOFTFIT_HD inline void rotateColumns(M3<T>& m, int p, int q, Rotation2<T> j) {
  const T c = j.c, s = -j.s;
  for (int k = 0; k < 3; ++k) {
    const T xi = m(k, p), yi = m(k, q);
    m(k, p) = c * xi + s * yi;
    m(k, q) = -s * xi + c * yi;
  }
}

template <typename T>
SOFTFIT_HD inline Rotation2<T> makeJacobi(T x, T y, T z) {
  const T deno = T(2) * absolute(y);
  if (deno < Limits<T>::smallest()) return {T(1), T(0)};
  const T tau = (x - z) / deno;
  const T w = squareRoot(tau * tau + T(1));
  const T t = tau > T(0) ? T(1) / (tau + w) : T(1) / (tau - w);
  const T signT = t > T(0) ? T(1) : T(-1);
  const T n = T(1) / squareRoot(t * t + T(1));
  return {n, -signT * (y / absolute(y)) * absolute(t) * n};
}

template <typename T>
SOFTFIT_HD inline void real2x2JacobiSvd(const M3<T>& matrix, int p, int q, Rotation2<T>& left, Rotation2<T>& right) {
  T m00 = matrix(p, p), m01 = matrix(p, q), m10 = matrix(q, p), m11 = matrix(q, q);
  Rotation2<T> rot1;
  const T t = m00 + m11;
  const T d = m10 - m01;
  if (absolute(d) < Limits<T>::smallest()) {
    rot1 = {T(1), T(0)};
  } else {
    const T u = t / d;
    const T tmp = squareRoot(T(1) + u * u);
    rot1 = {u / tmp, T(1) / tmp};
  }
  // m.applyOnTheLeft(0, 1, rot1)
  {
    const T x0 = m00, y0 = m10, x1 = m01, y1 = m11;
    m00 = rot1.c * x0 + rot1.s * y0;
    m10 = -rot1.s * x0 + rot1.c * y0;
    m01 = rot1.c * x1 + rot1.s * y1;
    m11 = -rot1.s * x1 + rot1.c * y1;
  }
  (void)m10;
  right = makeJacobi(m00, m01, m11);
  // left = rot1 * right^T, with right^T = (c, -s).
  const Rotation2<T> rt{right.c, -right.s};
  left = {rot1.c * rt.c - rot1.s * rt.s, rot1.c * rt.s + rot1.s * rt.c};
}

template <typename T>
struct Svd3 {
  M3<T> U;      // rotation, det U = +1
  V3<T> sigma;  // descending; sigma[2] < 0 iff det F < 0
  M3<T> V;      // rotation, det V = +1
};

template <typename T>
SOFTFIT_HD inline Svd3<T> signedSvd3(const M3<T>& F) {
  const T precision = T(2) * Limits<T>::epsilon();
  const T considerAsZero = Limits<T>::smallest();
  T scale = T(0);
  for (int i = 0; i < 9; ++i) scale = maximum(scale, absolute(F.m[i]));
  if (scale == T(0)) scale = T(1);
  M3<T> W;
  for (int i = 0; i < 9; ++i) W.m[i] = F.m[i] / scale;
  Svd3<T> out{M3<T>::identity(), V3<T>{}, M3<T>::identity()};
  T maxDiag = maximum(maximum(absolute(W(0, 0)), absolute(W(1, 1))), absolute(W(2, 2)));
  bool finished = false;
  int sweeps = 0;
  while (!finished && sweeps < 64) {  // Eigen has no cap; 64 sweeps never bind for finite F
    ++sweeps;
    finished = true;
    for (int p = 1; p < 3; ++p)
      for (int q = 0; q < p; ++q) {
        const T threshold = maximum(considerAsZero, precision * maxDiag);
        if (absolute(W(p, q)) > threshold || absolute(W(q, p)) > threshold) {
          finished = false;
          Rotation2<T> left, right;
          real2x2JacobiSvd(W, p, q, left, right);
          rotateRows(W, p, q, left);
          rotateColumns(out.U, p, q, Rotation2<T>{left.c, -left.s});  // U.applyOnTheRight(p,q,left^T)
          rotateColumns(W, p, q, right);
          rotateColumns(out.V, p, q, right);
          maxDiag = maximum(maxDiag, maximum(absolute(W(p, p)), absolute(W(q, q))));
        }
      }
  }
  for (int i = 0; i < 3; ++i) {
    const T a = W(i, i);
    out.sigma[i] = absolute(a);
    if (a < T(0))
      for (int k = 0; k < 3; ++k) out.U(k, i) = -out.U(k, i);
  }
  for (int i = 0; i < 3; ++i) out.sigma[i] *= scale;
  for (int i = 0; i < 3; ++i) {
    int pos = i;  // first index of the maximum of the tail
    for (int k = i + 1; k < 3; ++k)
      if (out.sigma[k] > out.sigma[pos]) pos = k;
    if (out.sigma[pos] == T(0)) break;
    if (pos != i) {
      const T s = out.sigma[i];
      out.sigma[i] = out.sigma[pos];
      out.sigma[pos] = s;
      for (int k = 0; k < 3; ++k) {
        T u = out.U(k, i);
        out.U(k, i) = out.U(k, pos);
        out.U(k, pos) = u;
        T v = out.V(k, i);
        out.V(k, i) = out.V(k, pos);
        out.V(k, pos) = v;
      }
    }
  }
  // Sign fix (forward/math/polar_decomposition.cpp).
  if (determinant(out.U) < T(0)) {
    for (int k = 0; k < 3; ++k) out.U(k, 2) = -out.U(k, 2);
    out.sigma[2] = -out.sigma[2];
  }
  if (determinant(out.V) < T(0)) {
    for (int k = 0; k < 3; ++k) out.V(k, 2) = -out.V(k, 2);
    out.sigma[2] = -out.sigma[2];
  }
  return out;
}

template <typename T>
SOFTFIT_HD inline M3<T> polarRotation3(const Svd3<T>& svd) {
  return multiplyByTransposed(svd.U, svd.V);
}
template <typename T>
SOFTFIT_HD inline M3<T> polarRotation3(const M3<T>& F) {
  return polarRotation3(signedSvd3(F));
}

// (dR/dF)^T applied to dR (dR/dF is symmetric): sum over pairs i < j of
// (T_ij : dR) / max(sigma_i + sigma_j, floor) T_ij with T_ij = u_i v_j^T - u_j v_i^T
// (forward/math/polar_decomposition.h, kPolarDenominatorFloor = 1e-10).
template <typename T>
SOFTFIT_HD inline M3<T> polarRotationAdjoint(const Svd3<T>& svd, const M3<T>& dR) {
  const T floor = T(1e-10) * maximum(svd.sigma[0], T(1));
  const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  M3<T> dF = M3<T>::zero();
  for (int k = 0; k < 3; ++k) {
    const int i = pairs[k][0], j = pairs[k][1];
    M3<T> Tm;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) Tm(r, c) = svd.U(r, i) * svd.V(c, j) - svd.U(r, j) * svd.V(c, i);
    const T denom = maximum(svd.sigma[i] + svd.sigma[j], floor);
    const T coefficient = frobenius(Tm, dR) / denom;
    for (int r = 0; r < 9; ++r) dF.m[r] += coefficient * Tm.m[r];
  }
  return dF;
}

// ---- Thesis softmin ground springs (forward/energies/ground_contact.cpp) ----
template <typename T>
SOFTFIT_HD inline T softminZero(T d, T alpha) {
  const T s = alpha * d;
  if (s >= T(0)) return -logOnePlus(exponential(-s)) / alpha;
  return d - logOnePlus(exponential(s)) / alpha;
}
template <typename T>
SOFTFIT_HD inline T softminZeroDerivative(T d, T alpha) {
  const T s = alpha * d;
  if (s >= T(0)) {
    const T e = exponential(-s);
    return e / (T(1) + e);
  }
  return T(1) / (T(1) + exponential(s));
}
template <typename T>
SOFTFIT_HD inline T softminZeroSecondDerivative(T d, T alpha) {
  const T s = softminZeroDerivative(d, alpha);
  return -alpha * s * (T(1) - s);
}

}  // namespace softfit::gpu

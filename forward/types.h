#pragma once
// Basic numeric types shared by the whole CPU path (double precision throughout).
#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace softfit {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec9 = Eigen::Matrix<double, 9, 1>;
using Mat9 = Eigen::Matrix<double, 9, 9>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
using PointMatrix = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;  // N x 3 points
using TriangleMatrix = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;  // T x 3 vertex indices

// Node positions, velocities and forces are flat vectors of size 3 * nodes:
// (x0, y0, z0, x1, y1, z1, ...).
inline Eigen::Ref<Vec3> nodeOf(VecX& v, int i) { return v.segment<3>(3 * i); }
inline Vec3 nodeOf(const VecX& v, int i) { return v.segment<3>(3 * i); }

// Column-major flattening of a 3x3 matrix, the convention for dP/dF (9x9).
inline Vec9 flatten(const Mat3& m) { return Eigen::Map<const Vec9>(m.data()); }
inline Mat3 unflatten(const Vec9& v) { return Eigen::Map<const Mat3>(v.data()); }

}  // namespace softfit

#include "python/bindings/numpy_views.h"

#include <cstring>

#include "forward/errors.h"

namespace softfit::python {

namespace {

std::string shapeText(const pybind11::ssize_t* dims, size_t n) {
  std::string out = "(";
  for (size_t i = 0; i < n; ++i) out += (i ? ", " : "") + std::to_string(dims[i]);
  return out + (n == 1 ? ",)" : ")");
}

}  // namespace

Array toRowsOf3(const VecX& v) {
  Array a({static_cast<pybind11::ssize_t>(v.size() / 3), pybind11::ssize_t(3)});
  if (v.size()) std::memcpy(a.mutable_data(), v.data(), sizeof(double) * v.size());
  return a;
}

void requireShape(const Array& a, std::initializer_list<pybind11::ssize_t> shape, const std::string& field) {
  bool same = a.ndim() == static_cast<pybind11::ssize_t>(shape.size());
  size_t i = 0;
  for (pybind11::ssize_t d : shape) same = same && a.shape(i++) == d;
  if (!same)
    throw InputError(field + ": shape " + shapeText(a.shape(), a.ndim()) + ", expected " +
                     shapeText(shape.begin(), shape.size()));
}

VecX fromRowsOf3(const Array& a, int rows, const std::string& field) {
  requireShape(a, {rows, 3}, field);
  VecX v(3 * rows);
  if (rows) std::memcpy(v.data(), a.data(), sizeof(double) * v.size());
  if (!v.allFinite()) throw InputError(field + ": holds a value that is not finite");
  return v;
}

}  // namespace softfit::python

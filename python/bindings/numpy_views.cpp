#include "python/bindings/numpy_views.h"

#include <cmath>
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

void requireFinite(const Array& a, const std::string& field) {
  const double* data = a.data();
  for (pybind11::ssize_t i = 0; i < a.size(); ++i)
    if (!std::isfinite(data[i]))
      throw InputError(field + ": holds a value that is not finite (flat index " + std::to_string(i) + ")");
}

std::vector<std::string> nameList(const pybind11::handle& names, const std::string& argument) {
  if (pybind11::isinstance<pybind11::str>(names)) return {names.cast<std::string>()};
  const auto type = [](const pybind11::handle& h) { return std::string(pybind11::str(h.get_type().attr("__name__"))); };
  if (pybind11::isinstance<pybind11::list>(names) || pybind11::isinstance<pybind11::tuple>(names)) {
    std::vector<std::string> out;
    for (const pybind11::handle& item : names) {
      if (!pybind11::isinstance<pybind11::str>(item))
        throw pybind11::type_error(argument + ": expected parameter names (str), got an item of type " + type(item));
      out.push_back(item.cast<std::string>());
    }
    return out;
  }
  throw pybind11::type_error(argument + ": expected a parameter name or a list of names (str), got " + type(names));
}

VecX fromRowsOf3(const Array& a, int rows, const std::string& field) {
  requireShape(a, {rows, 3}, field);
  VecX v(3 * rows);
  if (rows) std::memcpy(v.data(), a.data(), sizeof(double) * v.size());
  if (!v.allFinite()) throw InputError(field + ": holds a value that is not finite");
  return v;
}

}  // namespace softfit::python

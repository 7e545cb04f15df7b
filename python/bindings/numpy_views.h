#pragma once
// NumPy <-> flat 3N vectors: (N, 3) and (T+1, N, 3) float64 arrays, C order.
#include <pybind11/numpy.h>

#include <string>
#include <vector>

#include "forward/types.h"

namespace softfit::python {

using Array = pybind11::array_t<double, pybind11::array::c_style | pybind11::array::forcecast>;

// A new (rows, 3) array holding v (3 * rows values).
Array toRowsOf3(const VecX& v);
// v from an (N, 3) array; InputError naming `field` for another shape.
VecX fromRowsOf3(const Array& a, int rows, const std::string& field);
// InputError naming `field` unless `a` has exactly these dimensions.
void requireShape(const Array& a, std::initializer_list<pybind11::ssize_t> shape, const std::string& field);
// InputError naming `field` when `a` holds a NaN or an infinity.
void requireFinite(const Array& a, const std::string& field);
// Parameter names as the CLI's --params: "E,nu" or ["E", "nu"]; a TypeError naming
// `argument` for anything else (never pybind11's bare cast error).
std::vector<std::string> nameList(const pybind11::handle& names, const std::string& argument);

}  // namespace softfit::python

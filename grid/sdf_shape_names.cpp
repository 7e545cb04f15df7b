// The names of SdfShape::Type (sdf_shape.h), apart from makeSdf so that parsing a scene
// links without the SDF implementations (fuzz/).
#include "grid/sdf_shape.h"

#include <utility>

#include "forward/errors.h"

namespace softfit {

namespace {

const std::pair<SdfShape::Type, const char*> kTypeNames[] = {
    {SdfShape::Type::Sphere, "sphere"},         {SdfShape::Type::Box, "box"},
    {SdfShape::Type::Torus, "torus"},           {SdfShape::Type::Capsule, "capsule"},
    {SdfShape::Type::Union, "union"},           {SdfShape::Type::Difference, "difference"},
    {SdfShape::Type::Intersection, "intersection"}, {SdfShape::Type::Volume, "volume"},
    {SdfShape::Type::Mesh, "mesh"},
};

}  // namespace

SdfShape::Type parseSdfShapeType(const std::string& name, const std::string& field) {
  for (const auto& [type, text] : kTypeNames)
    if (name == text) return type;
  throw InputError(field + " = \"" + name +
                   "\": unknown SDF type (valid: sphere, box, torus, capsule, union, difference, intersection, "
                   "volume, mesh)");
}

std::string sdfShapeTypeName(SdfShape::Type type) {
  for (const auto& [t, text] : kTypeNames)
    if (t == type) return text;
  return "?";
}

}  // namespace softfit

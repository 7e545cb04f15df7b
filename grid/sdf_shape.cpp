#include "grid/sdf_shape.h"

#include "forward/errors.h"
#include "grid/mesh_sdf.h"
#include "grid/sdf_csg.h"
#include "grid/sdf_primitives.h"
#include "grid/sdf_volume.h"
#include "grid/sdf_volume_file.h"
#include "grid/winding_number_sdf.h"

namespace softfit {

namespace {

SdfPtr makeUnprefixed(const SdfShape& s) {
  using T = SdfShape::Type;
  switch (s.type) {
    case T::Sphere: return std::make_shared<SphereSdf>(s.center, s.radius);
    case T::Box: return std::make_shared<BoxSdf>(s.center, s.halfExtents);
    case T::Torus: return std::make_shared<TorusSdf>(s.center, s.axis, s.majorRadius, s.minorRadius);
    case T::Capsule: return std::make_shared<CapsuleSdf>(s.a, s.b, s.radius);
    case T::Volume: return std::make_shared<VolumeSdf>(readSdfVolume(s.file));
    case T::Mesh:
      if (s.meshSign == SdfShape::MeshSign::WindingNumber)
        return std::make_shared<WindingNumberMeshSdf>(readSdfSurface(s.file, s.scale, s.translate));
      return loadTriangleMeshSdf(s.file, s.scale, s.translate);
    case T::Union:
    case T::Difference:
    case T::Intersection: break;
  }
  std::vector<SdfPtr> children;
  for (const SdfShape& child : s.children) children.push_back(makeSdf(child));
  if (s.type == T::Union) return std::make_shared<UnionSdf>(std::move(children));
  if (s.type == T::Difference) return std::make_shared<DifferenceSdf>(std::move(children));
  return std::make_shared<IntersectionSdf>(std::move(children));
}

}  // namespace

SdfPtr makeSdf(const SdfShape& shape) {
  try {
    return makeUnprefixed(shape);
  } catch (const InputError& e) {
    const std::string what = e.what();
    // Children already prefixed themselves (their field starts with ours).
    if (what.rfind(shape.field, 0) == 0) throw;
    throw InputError(shape.field + ": " + what);
  }
}

}  // namespace softfit

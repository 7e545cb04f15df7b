#include "reconstruct/sdf_redistance.h"

#include <memory>

#include "forward/errors.h"
#include "grid/mesh_sdf.h"

namespace softfit {

bool redistanceToSurface(SdfVolume& volume, const TriangleSurface& surface) {
  std::unique_ptr<TriangleMeshSdf> exact;
  try {
    exact = std::make_unique<TriangleMeshSdf>(surface);
  } catch (const InputError&) {
    return false;
  }
  for (int k = 0; k < volume.dims[2]; ++k)
    for (int j = 0; j < volume.dims[1]; ++j)
      for (int i = 0; i < volume.dims[0]; ++i) {
        const Vec3 p = volume.origin + Vec3(i, j, k).cwiseProduct(volume.spacing);
        volume.values[volume.index(i, j, k)] = exact->value(p);
      }
  return true;
}

}  // namespace softfit

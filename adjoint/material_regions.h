#pragma once
// Which scene material region each element belongs to (same rule as the scene
// builder: the last region whose box contains the element's centroid; 0 = none,
// k = material.regions[k-1]). Works for tets and cut cells alike.
#include <vector>

#include "forward/energies/physical_model.h"
#include "scene/scene_description.h"

namespace softfit {

std::vector<int> materialRegionOfElements(const MaterialSettings& material, const PhysicalModel& model);

}  // namespace softfit

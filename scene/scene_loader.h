#pragma once
#include <nlohmann/json.hpp>

#include "scene/scene_description.h"

namespace softfit {

// Reads a scene JSON file. Relative mesh paths are resolved against the file's folder.
// InputError messages start with the file name and name the offending field.
SceneDescription loadScene(const std::string& path);
// Same from an already parsed document; `source` names it in messages.
SceneDescription parseScene(const nlohmann::json& document, const std::string& source, const std::string& baseDirectory);

}  // namespace softfit

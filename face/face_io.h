#pragma once
// Face data on disk.
//
// model.json (relative paths are relative to the file; unknown keys are errors):
//   {"tet_mesh": "face.1.node",               any format readTetMesh reads
//    "material": {"youngs_modulus": 8000, "poisson_ratio": 0.45, "density": 1000},
//    "gravity": [0, -9.81, 0],                  optional (default 0)
//    "body_force": [0, 0, 0],                   optional force density (N/m^3), e.g. wind
//    "skull_nodes": [..] | "skull.txt",         0-based node indices (file: whitespace-separated)
//    "jaw": {"nodes": [..] | "jaw.txt", "pivot": [x,y,z], "open_axis": [1,0,0], "side_axis": [0,1,0]},
//    "muscles": [{"name": "frontalis_left", "surface": "muscles/frontalis_left.obj"}, ...],
//    "muscle_radius": 0.012,                    allowed muscles per tet (model units)
//    "geometry": "S.csv"}                       optional start S (else containment)
// targets.json in a targets folder:
//   {"correspondences": "correspondences.txt" | [..],   mesh node of each scan vertex
//    "targets": [{"name": "smile", "file": "smile.obj"}, ...]}
// Scan files: OBJ (vertices used), or any format the caller's reader handles (PLY in the
// command); vertex k of a scan corresponds to mesh node correspondences[k].
// Scans without correspondences: "closest_point_nodes": "skin.txt" | [..] instead of
// "correspondences"; each scan is then an OBJ surface (any vertex count, faces required)
// and the listed mesh nodes are pulled to their closest scan points (face_target.h).
#include <functional>
#include <string>
#include <vector>

#include "face/expression_objective.h"
#include "face/synthetic_face.h"

namespace softfit::face {

FaceModel loadFaceModel(const std::string& path);

using ScanReader = std::function<PointMatrix(const std::string& path)>;
// Reads OBJ vertices (faces optional); throws InputError for other extensions.
PointMatrix readObjVertices(const std::string& path);
// A scan's points: OBJ vertices or a PLY point cloud (by extension, any case); InputError
// naming the file for other extensions.
PointMatrix readScanPoints(const std::string& path);
std::vector<FaceTarget> loadFaceTargets(const std::string& folder, const FaceModel& model,
                                        const ScanReader& reader = readScanPoints);

// Writes the model (TetGen mesh, muscle OBJs, node lists, model.json) and the targets
// (OBJ scans of the outer surface + targets.json) of a synthetic face into `folder`, with
// the truth (true S as CSV, true expressions) in folder/truth/.
void writeSyntheticFace(const std::string& folder, const SyntheticFace& face);

// Dense S as CSV: header "passive,<muscle names>", one row per tet.
void writeGeometryCsv(const std::string& path, const MuscleGeometry& geometry,
                      const std::vector<std::string>& muscleNames);
// Reads such a CSV into the model's allowed pattern; InputError for weight on a muscle
// outside a tet's radius, wrong sizes or rows off the simplex.
MuscleGeometry readGeometryCsv(const std::string& path, const FaceModel& model);

struct NamedExpression {
  std::string name;
  Expression expression;
  double meanError = 0.0, maxError = 0.0;
  int iterations = 0;
};
// {"muscles": [...], "expressions": [{"name", "activations": [[6], ...], "jaw": [5], ...}]}
void writeExpressionsJson(const std::string& path, const std::vector<std::string>& muscleNames,
                          const std::vector<NamedExpression>& expressions);
std::vector<NamedExpression> readExpressionsJson(const std::string& path, int muscleCount);

// VTU of the deformed model with point data "error" (distance to the target at nodes with
// a correspondence, else 0) and "displacement", cell data "passive_weight" (S_i0) and
// "dominant_muscle" (argmax_j>0 S_ij, -1 if passive).
void writeFaceVtu(const std::string& path, const FaceModel& model, const MuscleGeometry& geometry, const VecX& x,
                  const FaceTarget* target);

}  // namespace softfit::face

#pragma once
// A typed description of an SDF shape tree (as read from a scene's "sdf" object) and the
// factory that turns it into a SignedDistanceField.
#include <string>
#include <vector>

#include "grid/signed_distance_field.h"

namespace softfit {

struct SdfShape {
  enum class Type { Sphere, Box, Torus, Capsule, Union, Difference, Intersection, Volume, Mesh };
  Type type = Type::Sphere;
  std::string field = "sdf";          // where it was given (JSON path), for messages
  Vec3 center = Vec3::Zero();         // sphere, box, torus
  double radius = 1.0;                // sphere, capsule
  Vec3 halfExtents = Vec3::Ones();    // box
  Vec3 axis = Vec3::UnitY();          // torus
  double majorRadius = 1.0;           // torus
  double minorRadius = 0.25;          // torus
  Vec3 a = Vec3::Zero(), b = Vec3::Zero();  // capsule segment
  std::vector<SdfShape> children;     // union, difference (first minus the rest), intersection
  std::string file;                   // volume (.json header) or mesh (.obj / .stl), resolved path
  double scale = 1.0;                 // mesh: x -> scale x + translate
  Vec3 translate = Vec3::Zero();
  // mesh: inside test. Pseudonormal: closed, consistently oriented surfaces only
  // (TriangleMeshSdf); WindingNumber: any surface (WindingNumberMeshSdf).
  enum class MeshSign { Pseudonormal, WindingNumber };
  MeshSign meshSign = MeshSign::Pseudonormal;
};

// Parses "sphere", "box", "torus", "capsule", "union", "difference", "intersection",
// "volume", "mesh"; InputError naming `field` otherwise.
SdfShape::Type parseSdfShapeType(const std::string& name, const std::string& field);
std::string sdfShapeTypeName(SdfShape::Type type);

// Builds the SDF (reading volume / mesh files). InputError messages start with the
// shape's field, e.g. "sdf.children[1]: sphere: radius must be positive ...".
SdfPtr makeSdf(const SdfShape& shape);

}  // namespace softfit

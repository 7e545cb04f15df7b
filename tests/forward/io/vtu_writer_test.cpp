#include "forward/io/vtu_writer.h"

#include <gtest/gtest.h>

#include <cmath>

#include "forward/errors.h"
#include "forward/mesh/procedural_box.h"
#include "forward/mesh/temp_directory.h"
#include "io_test_support.h"

namespace softfit {
namespace {

using testing::between;
using testing::countOccurrences;
using testing::readFile;
using testing::tokens;

// Body of the DataArray whose opening tag contains `marker`, or of the first DataArray
// after `marker` when that is an element tag such as "<Points>".
std::string arrayBody(const std::string& text, const std::string& marker) {
  std::size_t at = text.find(marker);
  if (at == std::string::npos) return "";
  if (marker[0] == '<') at = text.find("<DataArray", at);
  return between(text, ">", "</DataArray>", at);
}

TEST(VtuWriter, TetMeshWithFieldsRoundTrips) {
  const TetMesh box = makeBoxMesh(Vec3(0, 0, 0), Vec3(1.0 / 3.0, 0.7, 0.1), 2, 1, 1);
  VecX x = box.restPositions();
  x[4] += 1e-17 + 0.123456789012345678;  // digits that need full precision
  const VecX displacement = x - box.restPositions();
  VecX pressure(box.vertexCount());
  for (int i = 0; i < pressure.size(); ++i) pressure[i] = std::sqrt(2.0) * i;
  VecX volume(box.tetCount());
  for (int t = 0; t < box.tetCount(); ++t) volume[t] = signedTetVolume(box, t);
  VecX F(9 * box.tetCount());
  for (int t = 0; t < box.tetCount(); ++t) F.segment<9>(9 * t) = flatten(Mat3::Identity());

  TempDirectory dir;
  const std::string path = dir.file("box.vtu");
  writeVtu(path, x, box.tets, {{"displacement", displacement}, {"pressure", pressure}},
           {{"F", F}, {"rest_volume", volume}});
  const std::string text = readFile(path);
  EXPECT_EQ(text.rfind("<?xml", 0), 0u);
  EXPECT_NE(text.find("<VTKFile type=\"UnstructuredGrid\""), std::string::npos);
  EXPECT_NE(text.find("NumberOfPoints=\"" + std::to_string(box.vertexCount()) + "\""), std::string::npos);
  EXPECT_NE(text.find("NumberOfCells=\"" + std::to_string(box.tetCount()) + "\""), std::string::npos);
  EXPECT_EQ(countOccurrences(text, "<DataArray"), 4 + 3 + 1);
  EXPECT_NE(text.find("Name=\"displacement\" NumberOfComponents=\"3\""), std::string::npos);
  EXPECT_NE(text.find("Name=\"pressure\" NumberOfComponents=\"1\""), std::string::npos);
  EXPECT_NE(text.find("Name=\"F\" NumberOfComponents=\"9\""), std::string::npos);
  EXPECT_LT(text.find("Name=\"displacement\""), text.find("Name=\"pressure\""));  // name order

  // Points round-trip exactly.
  const auto points = tokens(arrayBody(text, "<Points>"));
  ASSERT_EQ(static_cast<int>(points.size()), 3 * box.vertexCount());
  for (int i = 0; i < x.size(); ++i) EXPECT_EQ(std::stod(points[i]), x[i]) << i;
  const auto connectivity = tokens(arrayBody(text, "Name=\"connectivity\""));
  ASSERT_EQ(static_cast<int>(connectivity.size()), 4 * box.tetCount());
  for (int t = 0; t < box.tetCount(); ++t)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(std::stoi(connectivity[4 * t + c]), box.tets(t, c));
  const auto offsets = tokens(arrayBody(text, "Name=\"offsets\""));
  ASSERT_EQ(static_cast<int>(offsets.size()), box.tetCount());
  EXPECT_EQ(offsets.back(), std::to_string(4 * box.tetCount()));
  const auto types = tokens(arrayBody(text, "Name=\"types\""));
  ASSERT_EQ(static_cast<int>(types.size()), box.tetCount());
  for (const auto& t : types) EXPECT_EQ(t, "10");
  const auto pressures = tokens(arrayBody(text, "Name=\"pressure\""));
  ASSERT_EQ(pressures.size(), static_cast<std::size_t>(box.vertexCount()));
  EXPECT_EQ(std::stod(pressures[3]), pressure[3]);

  // Same input, same bytes; the N x 3 overload writes the same file.
  const std::string again = dir.file("again.vtu");
  writeVtu(again, box.vertices, box.tets, {{"pressure", pressure}, {"displacement", displacement}},
           {{"rest_volume", volume}, {"F", F}});
  EXPECT_NE(readFile(again), text);  // x differs from the rest vertices in one coordinate
  writeVtu(again, x, box.tets, {{"pressure", pressure}, {"displacement", displacement}},
           {{"rest_volume", volume}, {"F", F}});
  EXPECT_EQ(readFile(again), text);
}

TEST(VtuWriter, HexCellsAndMixedCells) {
  // Two unit cubes side by side along x, VTK hexahedron node order.
  PointMatrix p(12, 3);
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i) p.row(i + 3 * (j + 2 * k)) << i, j, k;
  const auto id = [](int i, int j, int k) { return i + 3 * (j + 2 * k); };
  HexIndexMatrix hexes(2, 8);
  for (int c = 0; c < 2; ++c)
    hexes.row(c) << id(c, 0, 0), id(c + 1, 0, 0), id(c + 1, 1, 0), id(c, 1, 0), id(c, 0, 1), id(c + 1, 0, 1),
        id(c + 1, 1, 1), id(c, 1, 1);
  VtuCells cells = hexCells(hexes);
  const int tet[4] = {0, 1, 3, 6};
  cells.add(VtkCellType::kTetra, tet, 4);
  ASSERT_EQ(cells.cellCount(), 3);
  EXPECT_EQ(cells.offsets, (std::vector<int>{8, 16, 20}));

  TempDirectory dir;
  writeVtu(dir.file("grid.vtu"), p, cells, {}, {{"phase", Eigen::Vector3d(0, 1, 2)}});
  const std::string text = readFile(dir.file("grid.vtu"));
  EXPECT_NE(text.find("NumberOfPoints=\"12\" NumberOfCells=\"3\""), std::string::npos);
  EXPECT_EQ(tokens(arrayBody(text, "Name=\"types\"")), (std::vector<std::string>{"12", "12", "10"}));
  EXPECT_EQ(tokens(arrayBody(text, "Name=\"offsets\"")), (std::vector<std::string>{"8", "16", "20"}));
  EXPECT_EQ(tokens(arrayBody(text, "Name=\"connectivity\"")).size(), 20u);
  EXPECT_NE(text.find("<PointData/>"), std::string::npos);
}

TEST(VtuWriter, Errors) {
  const TetMesh box = makeBoxMesh(Vec3::Zero(), Vec3::Ones(), 1, 1, 1);
  const VecX x = box.restPositions();
  TempDirectory dir;
  const std::string unwritable = dir.file("no/such/folder/out.vtu");
  try {
    writeVtu(unwritable, x, box.tets);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(unwritable), std::string::npos) << e.what();
  }
  EXPECT_THROW(writeVtu(dir.file("a.vtu"), x, box.tets, {{"bad", VecX::Zero(5)}}), InputError);
  EXPECT_THROW(writeVtu(dir.file("b.vtu"), x, box.tets, {}, {{"bad", VecX::Zero(box.tetCount() + 1)}}), InputError);
  VecX nan = VecX::Zero(box.vertexCount());
  nan[2] = std::nan("");
  EXPECT_THROW(writeVtu(dir.file("c.vtu"), x, box.tets, {{"p", nan}}), InputError);
  EXPECT_THROW(writeVtu(dir.file("d.vtu"), VecX(x.head(x.size() - 1)), box.tets), InputError);
  TetIndexMatrix bad = box.tets;
  bad(0, 0) = 99;
  EXPECT_THROW(writeVtu(dir.file("e.vtu"), x, bad), InputError);
}

}  // namespace
}  // namespace softfit

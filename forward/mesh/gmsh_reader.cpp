#include "forward/mesh/gmsh_reader.h"

#include <array>
#include <unordered_map>
#include <vector>

#include "forward/mesh/text_tokenizer.h"

namespace softfit {

namespace {

constexpr int kTet4 = 4;    // 4-node tetrahedron
constexpr int kTet10 = 11;  // 10-node (second-order) tetrahedron

struct GmshData {
  std::vector<long long> nodeTags;
  std::vector<Vec3> nodes;
  std::vector<std::array<long long, 4>> tets;  // node tags
  std::vector<int> tetLines;                   // file line of each tet, for errors
  int tet10Count = 0;
};

// Skips to the line after "$End<name>".
void skipSection(TextTokenizer& in, std::string_view name) {
  const std::string end = "$End" + std::string(name.substr(1));
  const std::string what = "'" + end + "'";
  while (in.token(what.c_str()) != end) {
  }
}

void readNodeCoordinates(TextTokenizer& in, GmshData& data, long long tag) {
  const std::string what = "the coordinates of node " + std::to_string(tag);
  Vec3 x;
  for (int c = 0; c < 3; ++c) x[c] = in.real(what.c_str());
  data.nodes.push_back(x);
}

void readNodesV2(TextTokenizer& in, GmshData& data) {
  const long long n = in.count("node count", 4);
  for (long long i = 0; i < n; ++i) {
    const long long tag = in.integer("a node tag");
    data.nodeTags.push_back(tag);
    readNodeCoordinates(in, data, tag);
  }
  in.expect("$EndNodes");
}

void readElementsV2(TextTokenizer& in, GmshData& data) {
  const long long m = in.count("element count", 3);
  for (long long i = 0; i < m; ++i) {
    in.integer("an element tag");
    const long long type = in.integer("an element type");
    const long long tagCount = in.count("element tag count", 0);
    for (long long k = 0; k < tagCount; ++k) in.integer("an element tag value");
    if (type == kTet4) {
      std::array<long long, 4> tet;
      for (auto& v : tet) v = in.integer("a tetrahedron node tag");
      data.tets.push_back(tet);
      data.tetLines.push_back(in.line());
    } else if (type == kTet10) {
      ++data.tet10Count;
    }
    in.skipRestOfLine();
  }
  in.expect("$EndElements");
}

void readNodesV4(TextTokenizer& in, GmshData& data) {
  const long long blocks = in.count("node entity block count", 4);
  const long long total = in.count("node count", 4);
  in.integer("the minimum node tag");
  in.integer("the maximum node tag");
  for (long long b = 0; b < blocks; ++b) {
    const long long dim = in.integer("an entity dimension");
    in.integer("an entity tag");
    const long long parametric = in.integer("the parametric flag");
    const long long n = in.count("node count of the block", 4);
    if (dim < 0 || dim > 3 || (parametric != 0 && parametric != 1)) in.fail("malformed node entity block header");
    const std::size_t first = data.nodeTags.size();
    for (long long i = 0; i < n; ++i) data.nodeTags.push_back(in.integer("a node tag"));
    for (long long i = 0; i < n; ++i) {
      readNodeCoordinates(in, data, data.nodeTags[first + i]);
      in.skipRestOfLine();  // parametric coordinates, if any
    }
  }
  if (static_cast<long long>(data.nodes.size()) != total)
    in.fail("$Nodes header announces " + std::to_string(total) + " nodes but the blocks hold " +
            std::to_string(data.nodes.size()));
  in.expect("$EndNodes");
}

void readElementsV4(TextTokenizer& in, GmshData& data) {
  const long long blocks = in.count("element entity block count", 4);
  const long long total = in.count("element count", 2);
  in.integer("the minimum element tag");
  in.integer("the maximum element tag");
  long long seen = 0;
  for (long long b = 0; b < blocks; ++b) {
    in.integer("an entity dimension");
    in.integer("an entity tag");
    const long long type = in.integer("an element type");
    const long long n = in.count("element count of the block", 2);
    in.skipRestOfLine();
    for (long long i = 0; i < n; ++i) {
      in.integer("an element tag");
      if (type == kTet4) {
        std::array<long long, 4> tet;
        for (auto& v : tet) v = in.integer("a tetrahedron node tag");
        data.tets.push_back(tet);
        data.tetLines.push_back(in.line());
      } else if (type == kTet10) {
        ++data.tet10Count;
      }
      in.skipRestOfLine();
    }
    seen += n;
  }
  if (seen != total)
    in.fail("$Elements header announces " + std::to_string(total) + " elements but the blocks hold " +
            std::to_string(seen));
  in.expect("$EndElements");
}

}  // namespace

TetMesh readGmshMesh(const std::string& path) {
  TextTokenizer in(path);
  in.expect("$MeshFormat");
  const std::string version(in.token("the format version"));
  const bool v2 = version == "2" || version == "2.0" || version == "2.1" || version == "2.2";
  const bool v4 = version == "4.1";
  if (!v2 && !v4) in.fail("unsupported Gmsh format version " + version + " (supported: 2.2 and 4.1 ASCII)");
  const long long fileType = in.integer("the file type");
  if (fileType != 0) in.fail("binary Gmsh files are not supported (save as ASCII 2.2 or 4.1)");
  in.integer("the data size");
  in.expect("$EndMeshFormat");

  GmshData data;
  bool haveNodes = false;
  bool haveElements = false;
  while (!in.atEnd()) {
    const std::string_view section = in.token("a section");
    if (section.empty() || section[0] != '$') in.fail("expected a $Section, found '" + std::string(section) + "'");
    if (section == "$Nodes") {
      if (haveNodes) in.fail("second $Nodes section");
      v2 ? readNodesV2(in, data) : readNodesV4(in, data);
      haveNodes = true;
    } else if (section == "$Elements") {
      if (!haveNodes) in.fail("$Elements section before the $Nodes section");
      if (haveElements) in.fail("second $Elements section");
      v2 ? readElementsV2(in, data) : readElementsV4(in, data);
      haveElements = true;
    } else {
      skipSection(in, section);
    }
  }
  if (!haveNodes) in.failFile("no $Nodes section");
  if (!haveElements) in.failFile("no $Elements section");
  if (data.tets.empty()) {
    if (data.tet10Count > 0)
      in.failFile("contains only 10-node (second-order) tetrahedra; export a first-order mesh (element type 4)");
    in.failFile("contains no 4-node tetrahedra (element type 4)");
  }

  TetMesh mesh;
  mesh.source = path;
  std::unordered_map<long long, int> index;
  index.reserve(data.nodeTags.size());
  mesh.vertices.resize(static_cast<Eigen::Index>(data.nodes.size()), 3);
  for (std::size_t i = 0; i < data.nodes.size(); ++i) {
    if (!index.emplace(data.nodeTags[i], static_cast<int>(i)).second)
      in.failFile("node tag " + std::to_string(data.nodeTags[i]) + " appears twice");
    mesh.vertices.row(i) = data.nodes[i].transpose();
  }
  mesh.tets.resize(static_cast<Eigen::Index>(data.tets.size()), 4);
  for (std::size_t t = 0; t < data.tets.size(); ++t)
    for (int c = 0; c < 4; ++c) {
      const auto it = index.find(data.tets[t][c]);
      if (it == index.end())
        in.failAt(data.tetLines[t], "tetrahedron uses undefined node tag " + std::to_string(data.tets[t][c]));
      mesh.tets(t, c) = it->second;
    }
  validateTetMesh(mesh);
  return mesh;
}

}  // namespace softfit

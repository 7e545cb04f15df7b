#include "forward/energies/rotated_stiffness_gather.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>


namespace softfit {

RotatedStiffnessGather::RotatedStiffnessGather(const std::vector<Element>& elements,
                                               const BlockSparsePattern& pattern)
    : fingerprint_(pattern.fingerprint()) {
  struct Entry {
    int column, position, element, offset;
  };
  std::vector<Entry> entries;
  std::size_t count = 0;
  for (const Element& el : elements) count += el.nodeCount() * (el.nodeCount() + 1) / 2;
  entries.reserve(count);
  stride_.reserve(elements.size());
  for (std::size_t e = 0; e < elements.size(); ++e) {
    const Element& el = elements[e];
    const int n = el.nodeCount();
    stride_.push_back(3 * n);
    for (int b = 0; b < n; ++b)
      for (int a = 0; a < n; ++a) {
        if (el.nodes[a] < el.nodes[b]) continue;  // upper triangle: the mirror of (b, a)
        const int p = pattern.blockPosition(el.nodes[a], el.nodes[b]);
        if (p < 0) throw std::logic_error("RotatedStiffnessGather: element block not in the pattern");
        entries.push_back({el.nodes[b], p, static_cast<int>(e), 3 * b * 3 * n + 3 * a});
      }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) {
    return std::tie(x.column, x.position, x.element, x.offset) < std::tie(y.column, y.position, y.element, y.offset);
  });
  terms_.reserve(entries.size());
  targetStart_.push_back(0);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& x = entries[i];
    if (i == 0 || x.column != entries[i - 1].column || x.position != entries[i - 1].position) {
      if (i > 0) targetStart_.push_back(static_cast<int>(terms_.size()));
      const int row = elements[x.element].nodes[(x.offset % (3 * elements[x.element].nodeCount())) / 3];
      Target t{x.column, x.position, -1, -1};
      if (row != x.column) {
        t.mirrorColumn = row;
        t.mirrorPosition = pattern.blockPosition(x.column, row);
        if (t.mirrorPosition < 0) throw std::logic_error("RotatedStiffnessGather: pattern is not symmetric");
      }
      targets_.push_back(t);
    }
    terms_.push_back({x.element, x.offset});
  }
  if (!entries.empty()) targetStart_.push_back(static_cast<int>(terms_.size()));
}

void RotatedStiffnessGather::throwPatternMismatch() {
  throw std::logic_error("RotatedStiffnessGather::add: matrix pattern differs from the one it was built for");
}

}  // namespace softfit

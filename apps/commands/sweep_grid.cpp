#include "apps/commands/sweep_grid.h"

#include <cmath>
#include <random>
#include <sstream>

#include "forward/errors.h"
#include "forward/mesh/text_tokenizer.h"

namespace softfit::apps {

namespace {

constexpr long long kMaxPoints = 1000000;

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.push_back("");
  return parts;
}

double parseNumber(const std::string& token, const std::string& item, const char* what) {
  double value = 0.0;
  if (!parseReal(token, value) || !std::isfinite(value))
    throw InputError("--grid: \"" + item + "\": the " + what + " \"" + token + "\" is not a finite number");
  return value;
}

}  // namespace

std::vector<SweepAxis> parseSweepGrid(const std::string& text, bool latinHypercube) {
  const std::string form = latinHypercube ? "name=low:high" : "name=low:high:count";
  if (text.empty()) throw InputError("--grid: empty (expected " + form + ",...)");
  std::vector<SweepAxis> axes;
  long long points = 1;
  for (const std::string& item : split(text, ',')) {
    const auto eq = item.find('=');
    if (item.empty() || eq == std::string::npos || eq == 0)
      throw InputError("--grid: \"" + item + "\" is not " + form);
    SweepAxis axis;
    axis.name = item.substr(0, eq);
    const std::vector<std::string> fields = split(item.substr(eq + 1), ':');
    const size_t expected = latinHypercube ? 2 : 3;
    if (fields.size() != expected) {
      std::string hint = latinHypercube && fields.size() == 3 ? " (with --lhs give no count)" : "";
      throw InputError("--grid: \"" + item + "\" is not " + form + hint);
    }
    axis.low = parseNumber(fields[0], item, "low end");
    axis.high = parseNumber(fields[1], item, "high end");
    if (axis.low > axis.high) throw InputError("--grid: \"" + item + "\": low end above high end");
    if (!latinHypercube) {
      long long count = 0;
      if (!parseInteger(fields[2], count) || count < 1 || count > kMaxPoints)
        throw InputError("--grid: \"" + item + "\": the count \"" + fields[2] + "\" is not an integer in [1, 1000000]");
      axis.count = static_cast<int>(count);
      if (count == 1 && axis.low != axis.high)
        throw InputError("--grid: \"" + item + "\": one point needs low = high");
      if (count > 1 && axis.low == axis.high)
        throw InputError("--grid: \"" + item + "\": " + fields[2] + " points need low < high");
      points *= count;
      if (points > kMaxPoints) throw InputError("--grid: more than 1000000 points");
    } else if (axis.low == axis.high) {
      throw InputError("--grid: \"" + item + "\": a Latin hypercube needs low < high");
    }
    for (const SweepAxis& other : axes)
      if (other.name == axis.name) throw InputError("--grid: " + axis.name + " is given twice");
    axes.push_back(axis);
  }
  return axes;
}

std::vector<VecX> gridPoints(const std::vector<SweepAxis>& axes) {
  long long total = 1;
  for (const SweepAxis& a : axes) total *= a.count;
  std::vector<VecX> points;
  points.reserve(static_cast<size_t>(total));
  const int n = static_cast<int>(axes.size());
  for (long long index = 0; index < total; ++index) {
    VecX p(n);
    long long rest = index;
    for (int d = n - 1; d >= 0; --d) {  // the last axis fastest
      const int k = static_cast<int>(rest % axes[d].count);
      rest /= axes[d].count;
      const SweepAxis& a = axes[d];
      p[d] = a.count == 1 ? a.low : a.low + (a.high - a.low) * k / (a.count - 1);
      if (k == a.count - 1) p[d] = a.high;  // the end exactly
    }
    points.push_back(p);
  }
  return points;
}

std::vector<VecX> latinHypercubePoints(const std::vector<SweepAxis>& axes, int count, std::uint64_t seed) {
  if (count < 1) throw InputError("--lhs: must be at least 1");
  if (count > kMaxPoints) throw InputError("--lhs: more than 1000000 points");
  std::mt19937_64 generator(seed);
  const auto unit = [&] { return static_cast<double>(generator() >> 11) * 0x1.0p-53; };  // [0, 1)
  const int n = static_cast<int>(axes.size());
  std::vector<VecX> points(count, VecX(n));
  for (int d = 0; d < n; ++d) {
    std::vector<int> strata(count);
    for (int i = 0; i < count; ++i) strata[i] = i;
    for (int i = count - 1; i > 0; --i) std::swap(strata[i], strata[generator() % static_cast<std::uint64_t>(i + 1)]);
    for (int i = 0; i < count; ++i) {
      const double u = (strata[i] + unit()) / count;
      points[i][d] = axes[d].low + (axes[d].high - axes[d].low) * u;
    }
  }
  return points;
}

}  // namespace softfit::apps

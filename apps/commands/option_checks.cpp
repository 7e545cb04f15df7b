#include "apps/commands/option_checks.h"

#include <cmath>
#include <sstream>

#include "forward/mesh/text_tokenizer.h"

namespace softfit::apps {

namespace {

std::string format(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

CLI::Validator numberCheck(double minimum, bool inclusive) {
  const std::string rule = "must be a finite number " + std::string(inclusive ? ">= " : "> ") + format(minimum);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        double value = 0.0;
        if (!parseReal(text, value) || !std::isfinite(value) || (inclusive ? value < minimum : value <= minimum))
          return rule + ", got \"" + text + "\"";
        return "";
      },
      inclusive ? "NUMBER>=" + format(minimum) : "NUMBER>" + format(minimum));
}

}  // namespace

CLI::Validator integerAtLeast(long long minimum) {
  const std::string rule = "must be an integer >= " + std::to_string(minimum);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        long long value = 0;
        if (!parseInteger(text, value) || value < minimum) return rule + ", got \"" + text + "\"";
        return "";
      },
      "INT>=" + std::to_string(minimum));
}

CLI::Validator numberAtLeast(double minimum) { return numberCheck(minimum, true); }
CLI::Validator numberAbove(double minimum) { return numberCheck(minimum, false); }

}  // namespace softfit::apps

#include "apps/commands/option_checks.h"

#include <climits>
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

CLI::Validator integerBetween(long long minimum, long long maximum) {
  const std::string rule = "must be an integer " + (maximum == LLONG_MAX ? ">= " + std::to_string(minimum)
                                                                        : "in [" + std::to_string(minimum) + ", " +
                                                                              std::to_string(maximum) + "]");
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        long long value = 0;
        if (!parseInteger(text, value) || value < minimum || value > maximum) return rule + ", got \"" + text + "\"";
        return "";
      },
      maximum == LLONG_MAX ? "INT>=" + std::to_string(minimum)
                           : "INT in [" + std::to_string(minimum) + ", " + std::to_string(maximum) + "]");
}

CLI::Validator integerAtLeast(long long minimum) { return integerBetween(minimum, LLONG_MAX); }

CLI::Validator numberAtLeast(double minimum) { return numberCheck(minimum, true); }
CLI::Validator numberAbove(double minimum) { return numberCheck(minimum, false); }

CLI::Validator numberBetween(double minimum, double maximum) {
  const std::string rule = "must be a finite number in [" + format(minimum) + ", " + format(maximum) + "]";
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        double value = 0.0;
        if (!parseReal(text, value) || !(value >= minimum && value <= maximum)) return rule + ", got \"" + text + "\"";
        return "";
      },
      "NUMBER in [" + format(minimum) + ", " + format(maximum) + "]");
}

}  // namespace softfit::apps

#include "optim/report/fit_report.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "forward/errors.h"

namespace softfit {

void writeFitHistoryCsv(const std::string& path, const std::vector<std::string>& names, const TransformSet& transforms,
                        const std::vector<IterationRecord>& history) {
  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot open for writing");
  out << "iteration,evaluations,seconds,cost,gradient_norm";
  for (const auto& n : names) out << "," << n;
  out << "\n";
  char buffer[64];
  for (const auto& r : history) {
    out << r.iteration << "," << r.evaluations;
    for (double v : {r.seconds, r.cost, r.gradientNorm}) {
      std::snprintf(buffer, sizeof(buffer), ",%.17g", v);
      out << buffer;
    }
    const VecX p = transforms.toPhysical(r.point);
    for (int i = 0; i < p.size(); ++i) {
      std::snprintf(buffer, sizeof(buffer), ",%.17g", p[i]);
      out << buffer;
    }
    out << "\n";
  }
  if (!out) throw InputError(path + ": write failed");
}

void writeFitResultJson(const std::string& path, const FitSummary& s) {
  nlohmann::json j;
  for (size_t i = 0; i < s.names.size(); ++i) {
    nlohmann::json p = {{"start", s.start[i]}, {"result", s.result[i]}};
    if (s.bootstrap.steps > 0) p["before_bootstrap"] = s.bootstrap.estimate[i];
    const auto t = s.truth.find(s.names[i]);
    if (t != s.truth.end()) {
      p["truth"] = t->second;
      p["relative_error"] = (s.result[i] - t->second) / (t->second != 0.0 ? std::abs(t->second) : 1.0);
    }
    j["parameters"][s.names[i]] = p;
  }
  j["cost"] = s.optimization.cost;
  j["iterations"] = s.optimization.iterations;
  j["evaluations"] = s.optimization.evaluations;
  j["converged"] = s.optimization.converged;
  j["stop_reason"] = s.optimization.stopReason;
  j["seconds"] = s.seconds;
  if (s.bootstrap.steps > 0) {
    nlohmann::json b = {{"steps", s.bootstrap.steps}, {"replicates", s.bootstrap.replicates},
                        {"refits", s.bootstrap.refits}, {"sigma", s.bootstrap.sigma}};
    for (size_t k = 0; k < s.bootstrap.points.size(); ++k) {
      nlohmann::json step;
      for (size_t i = 0; i < s.names.size(); ++i) {
        step["point"][s.names[i]] = s.bootstrap.points[k][i];
        step["reestimate"][s.names[i]] = s.bootstrap.reestimates[k][i];
      }
      b["history"].push_back(step);
    }
    j["bootstrap"] = b;
  }
  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot open for writing");
  out << j.dump(2) << "\n";
  if (!out) throw InputError(path + ": write failed");
}

std::string formatFitSummary(const FitSummary& s) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof(line), "  %-20s %14s %14s %14s %10s\n", "parameter", "start", "recovered", "true", "error");
  out += line;
  for (size_t i = 0; i < s.names.size(); ++i) {
    const auto t = s.truth.find(s.names[i]);
    if (t != s.truth.end()) {
      const double error = 100.0 * (s.result[i] - t->second) / (t->second != 0.0 ? std::abs(t->second) : 1.0);
      std::snprintf(line, sizeof(line), "  %-20s %14.6g %14.6g %14.6g %+9.3f%%\n", s.names[i].c_str(), s.start[i],
                    s.result[i], t->second, error);
    } else {
      std::snprintf(line, sizeof(line), "  %-20s %14.6g %14.6g %14s %10s\n", s.names[i].c_str(), s.start[i], s.result[i],
                    "-", "-");
    }
    out += line;
  }
  if (s.bootstrap.steps > 0) {
    std::snprintf(line, sizeof(line), "  (after %d parametric-bootstrap step%s, %d noise replicate%s, %d refit%s per step, sigma %g; plain fit:",
                  s.bootstrap.steps, s.bootstrap.steps == 1 ? "" : "s", s.bootstrap.replicates,
                  s.bootstrap.replicates == 1 ? "" : "s", s.bootstrap.refits, s.bootstrap.refits == 1 ? "" : "s",
                  s.bootstrap.sigma);
    out += line;
    for (size_t i = 0; i < s.names.size(); ++i) {
      std::snprintf(line, sizeof(line), " %s=%.6g", s.names[i].c_str(), s.bootstrap.estimate[i]);
      out += line;
    }
    out += ")\n";
  }
  return out;
}

}  // namespace softfit

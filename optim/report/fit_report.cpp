#include "optim/report/fit_report.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "forward/errors.h"
#include "forward/mesh/input_file.h"

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

namespace {

std::vector<std::string> splitCsvLine(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

}  // namespace

FitHistoryTrack readFitHistoryCsv(const std::string& path, const std::vector<std::string>& names) {
  std::ifstream in = openInputFile(path, "fit history (a fit's history.csv)");  // no FIFO, device or folder
  std::string line;
  if (!std::getline(in, line)) throw InputError(path + ": empty, expected a header line");
  const std::vector<std::string> header = splitCsvLine(line);
  const auto column = [&](const std::string& name) {
    for (size_t k = 0; k < header.size(); ++k)
      if (header[k] == name) return k;
    throw InputError(path + ": no column \"" + name + "\" in the header");
  };
  const size_t costColumn = column("cost");
  std::vector<size_t> columns;
  for (const std::string& n : names) columns.push_back(column(n));
  FitHistoryTrack track;
  for (int lineNumber = 2; std::getline(in, line); ++lineNumber) {
    if (line.empty()) continue;
    const std::vector<std::string> fields = splitCsvLine(line);
    if (fields.size() != header.size())
      throw InputError(path + ": line " + std::to_string(lineNumber) + " has " + std::to_string(fields.size()) +
                       " fields, the header " + std::to_string(header.size()));
    const auto number = [&](size_t k) {
      char* end = nullptr;
      const double v = std::strtod(fields[k].c_str(), &end);
      if (fields[k].empty() || *end != '\0' || !std::isfinite(v))
        throw InputError(path + ": line " + std::to_string(lineNumber) + ", column \"" + header[k] +
                         "\": not a finite number");
      return v;
    };
    VecX p(static_cast<int>(names.size()));
    for (size_t i = 0; i < columns.size(); ++i) p[static_cast<int>(i)] = number(columns[i]);
    track.points.push_back(p);
    track.costs.push_back(number(costColumn));
  }
  return track;
}

namespace {

// JSON has no infinity or NaN: null stands for "not determined".
nlohmann::json jsonNumberOrNull(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json uncertaintyJson(const std::vector<std::string>& names, const FitUncertainty& u) {
  if (!u.available) return {{"available", false}, {"reason", u.unavailable}};
  nlohmann::json correlation = nlohmann::json::array();
  for (Eigen::Index i = 0; i < u.correlation.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index k = 0; k < u.correlation.cols(); ++k) row.push_back(jsonNumberOrNull(u.correlation(i, k)));
    correlation.push_back(row);
  }
  return {{"available", true},
          {"method", u.clusterDominated ? "Gauss-Newton at the end point, frame-clustered sandwich (errors correlated "
                                          "within frames)"
                                        : "Gauss-Newton at the end point, sandwich with independent point errors"},
          {"frames", u.frames},
          {"sigma", u.sigma},
          {"noise_sigma", u.noiseSigma},
          {"residual_rms", u.residualRms},
          {"observations", u.observations},
          {"forward_runs", u.forwardRuns},
          {"names", names},
          {"correlation", correlation}};
}

}  // namespace

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
    if (s.uncertainty.available) p["standard_error"] = jsonNumberOrNull(s.uncertainty.standardError[i]);
    j["parameters"][s.names[i]] = p;
  }
  j["uncertainty"] = uncertaintyJson(s.names, s.uncertainty);
  j["cost"] = s.optimization.cost;
  j["iterations"] = s.optimization.iterations;
  j["evaluations"] = s.optimization.evaluations;
  if (s.optimization.residualEvaluations > 0) j["forward_runs_for_jacobian"] = s.optimization.residualEvaluations;
  j["converged"] = s.optimization.converged;
  j["warnings"] = s.warnings;
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
  const bool errors = s.uncertainty.available;
  std::snprintf(line, sizeof(line), "  %-20s %14s %14s %12s %14s %10s\n", "parameter", "start", "recovered",
                errors ? "std error" : "", "true", "error");
  out += line;
  for (size_t i = 0; i < s.names.size(); ++i) {
    char se[32] = "";
    if (errors) std::snprintf(se, sizeof se, "%.3g", s.uncertainty.standardError[static_cast<Eigen::Index>(i)]);
    const auto t = s.truth.find(s.names[i]);
    if (t != s.truth.end()) {
      const double error = 100.0 * (s.result[i] - t->second) / (t->second != 0.0 ? std::abs(t->second) : 1.0);
      std::snprintf(line, sizeof(line), "  %-20s %14.6g %14.6g %12s %14.6g %+9.3f%%\n", s.names[i].c_str(), s.start[i],
                    s.result[i], se, t->second, error);
    } else {
      std::snprintf(line, sizeof(line), "  %-20s %14.6g %14.6g %12s %14s %10s\n", s.names[i].c_str(), s.start[i],
                    s.result[i], se, "-", "-");
    }
    out += line;
  }
  if (errors) {
    std::snprintf(line, sizeof(line),
                  "  (standard errors: Gauss-Newton at the end point, %d observations in %d frames, sigma %.3g m = "
                  "max(noise %.3g m, RMS residual %.3g m)%s)\n",
                  s.uncertainty.observations, s.uncertainty.frames, s.uncertainty.sigma, s.uncertainty.noiseSigma,
                  s.uncertainty.residualRms,
                  s.uncertainty.clusterDominated ? "; larger from the errors' correlation within frames" : "");
    out += line;
    std::string pairs;
    for (Eigen::Index i = 0; i < s.uncertainty.correlation.rows(); ++i)
      for (Eigen::Index k = i + 1; k < s.uncertainty.correlation.cols(); ++k)
        if (std::abs(s.uncertainty.correlation(i, k)) > 0.9) {
          std::snprintf(line, sizeof(line), "%s %s/%s %+.3f", pairs.empty() ? "" : ",", s.names[i].c_str(),
                        s.names[k].c_str(), s.uncertainty.correlation(i, k));
          pairs += line;
        }
    if (!pairs.empty()) out += "  strongly correlated:" + pairs + "\n";
  } else if (!s.uncertainty.unavailable.empty()) {
    out += "  (no standard errors: " + s.uncertainty.unavailable + ")\n";
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

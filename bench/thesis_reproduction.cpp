// bench/thesis_reproduction [--quick] [--verbose] [--only=counts,cuboid,joint,noise,torus,bunny,dragon,timing]
//                            [--surfaces=DIR] [--precondition=hessian]
// bench/thesis_reproduction [--quick] --write-bar-case=DIR | --write-collision-case=DIR
//                            (the files of thesis_landscapes.sh)
// Prints one markdown table: every thesis experiment next to softfit's result (see
// thesis_reproduction.h and bench/README.md). Exit code 0; 4 when an experiment throws.
#include "bench/thesis_reproduction.h"

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <exception>
#include <functional>
#include <set>
#include <sstream>

namespace softfit::thesis {

double processCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

namespace {

double wallSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string cell(std::string s) {
  for (char& c : s)
    if (c == '|') c = '/';
  return s;
}

}  // namespace

RowTimer::RowTimer() : cpu0_(processCpuSeconds()), wall0_(wallSeconds()) {}

double RowTimer::wallElapsed() const { return wallSeconds() - wall0_; }

void RowTimer::finish(Row& row) const {
  row.cpuSeconds = processCpuSeconds() - cpu0_;
  row.wallSeconds = wallSeconds() - wall0_;
}

std::string fitVariantLabel(const RunOptions& options, const std::string& cost) {
  return std::string(options.hessian ? ", Hessian-preconditioned L-BFGS" : "") +
         (cost == "closest"   ? ", closest-point cost"
          : cost == "mixture" ? ", noise-aware mixture cost"
          : cost == "pixel"   ? ", per-pixel point cost"
                              : "");
}

std::string format(const char* fmt, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buffer, sizeof buffer, fmt, args);
  va_end(args);
  return buffer;
}

std::string percent(double value, double truth) { return format("%+.3g%%", 100.0 * (value / truth - 1.0)); }

}  // namespace softfit::thesis

int main(int argc, char** argv) {
  using namespace softfit::thesis;
  RunOptions options;
  options.surfaceDir = std::string(SOFTFIT_SOURCE_DIR) + "/../shared/data/surface";
  std::set<std::string> only;
  // --write-bar-case=DIR / --write-collision-case=DIR: the scene's file name and writer.
  std::string caseDir, caseName;
  void (*writeCaseFiles)(const std::string&, const RunOptions&) = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--write-bar-case=", 0) == 0) {
      caseDir = arg.substr(17);
      caseName = "bar";
      writeCaseFiles = writeBarCase;
    } else if (arg.rfind("--write-collision-case=", 0) == 0) {
      caseDir = arg.substr(23);
      caseName = "collision";
      writeCaseFiles = writeCollisionCase;
    } else if (arg == "--quick") {
      options.quick = true;
    } else if (arg == "--verbose") {
      options.verbose = true;
    } else if (arg == "--precondition=hessian") {
      options.hessian = true;
    } else if (arg == "--point-cost=closest" || arg == "--point-cost=sdf" || arg == "--point-cost=mixture" ||
               arg == "--point-cost=pixel") {
      options.pointCost = arg.substr(13);
    } else if (arg.rfind("--surfaces=", 0) == 0) {
      options.surfaceDir = arg.substr(11);
    } else if (arg.rfind("--only=", 0) == 0) {
      std::stringstream list(arg.substr(7));
      for (std::string name; std::getline(list, name, ',');) only.insert(name);
    } else {
      std::fprintf(stderr,
                   "usage: thesis_reproduction [--quick] [--verbose] [--only=counts,cuboid,joint,noise,torus,bunny,dragon,timing]\n"
                   "                           [--surfaces=DIR] [--precondition=hessian] [--point-cost=closest|sdf|mixture|pixel]\n"
                   "       thesis_reproduction [--quick] --write-bar-case=DIR | --write-collision-case=DIR\n"
                   "unknown argument: %s\n",
                   arg.c_str());
      return 1;
    }
  }
  if (writeCaseFiles) {
    try {
      writeCaseFiles(caseDir, options);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "thesis_reproduction: %s\n", e.what());
      return 4;
    }
    std::printf("wrote %s/%s.json and %s/observations/{displacements,truth}.json\n", caseDir.c_str(), caseName.c_str(),
                caseDir.c_str());
    return 0;
  }
  const std::vector<std::pair<std::string, std::function<std::vector<Row>(const RunOptions&)>>> experiments = {
      {"counts", gridCountRows}, {"cuboid", cuboidTimingRows}, {"joint", jointFitRows},
      {"noise", noiseRows},      {"torus", torusRows},         {"bunny", bunnyRows},
      {"dragon", dragonRows},    {"timing", stepTimingRows}};
  for (const std::string& name : only) {
    bool known = false;
    for (const auto& e : experiments) known |= e.first == name;
    if (!known) {
      std::fprintf(stderr, "thesis_reproduction: --only: unknown experiment \"%s\"\n", name.c_str());
      return 1;
    }
  }
  std::vector<Row> rows;
  int failures = 0;
  for (const auto& [name, run] : experiments) {
    if (!only.empty() && !only.count(name)) continue;
    std::fprintf(stderr, "thesis_reproduction: running %s%s\n", name.c_str(), options.quick ? " (quick)" : "");
    try {
      for (Row& r : run(options)) {
        std::fprintf(stderr, "  %s: %s (%s) %.1f s CPU\n", r.experiment.c_str(), r.softfitResult.c_str(),
                     r.error.c_str(), r.cpuSeconds);
        rows.push_back(std::move(r));
      }
    } catch (const std::exception& e) {
      ++failures;
      Row r;
      r.experiment = name;
      r.softfitResult = std::string("FAILED: ") + e.what();
      r.verdict = "failed";
      rows.push_back(r);
    }
  }
  if (only.empty())
    for (Row& r : notReproducedRows()) rows.push_back(std::move(r));

  std::printf("| experiment | thesis setup (truth) | thesis result | softfit result | error vs truth | verdict | CPU s | wall s |\n");
  std::printf("|---|---|---|---|---|---|---:|---:|\n");
  for (const Row& r : rows) {
    const std::string cpu = r.cpuSeconds > 0 ? format("%.1f", r.cpuSeconds) : "-";
    const std::string wall = r.wallSeconds > 0 ? format("%.1f", r.wallSeconds) : "-";
    std::printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", cell(r.experiment).c_str(), cell(r.setup).c_str(),
                cell(r.thesisResult).c_str(), cell(r.softfitResult).c_str(), cell(r.error).c_str(),
                cell(r.verdict).c_str(), cpu.c_str(), wall.c_str());
  }
  return failures ? 4 : 0;
}

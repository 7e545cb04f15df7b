#include "apps/distribute/mpi_distribution.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include "apps/distribute/result_bytes.h"
#include "apps/distribute/thread_budget.h"

namespace softfit::apps {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// SOFTFIT_TEST_RANK_FAULT=kill:R or hang:R, optionally @C (tests only): at rank R's C-th
// runAll (default the first).
void injectFault(int rank, int call) {
  const char* spec = std::getenv("SOFTFIT_TEST_RANK_FAULT");
  if (!spec) return;
  const std::string s(spec);
  const auto colon = s.find(':');
  if (colon == std::string::npos || std::atoi(s.c_str() + colon + 1) != rank) return;
  const auto at = s.find('@', colon);
  if ((at == std::string::npos ? 1 : std::atoi(s.c_str() + at + 1)) != call) return;
  const std::string what = s.substr(0, colon);
  if (what == "kill") std::raise(SIGKILL);
  if (what == "hang")
    while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
}

// Waits for `request`, polling; past `limit` seconds ends the job with a message.
void waitBounded(MPI_Request& request, Clock::time_point since, double limit, int rank, const char* what) {
  int done = 0;
  auto pause = std::chrono::microseconds(50);
  while (true) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    if (limit > 0.0 && secondsSince(since) > limit) {
      std::fprintf(stderr,
                   "softfit: rank %d waited %.0f s for the other ranks' %s after finishing its own share: a rank "
                   "died or hangs; ending the job\n",
                   rank, limit, what);
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 4);
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
}

}  // namespace

MpiDistribution::MpiDistribution(int& argc, char**& argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm machine;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &machine);
  MPI_Comm_size(machine, &ranksOnMachine_);
  MPI_Comm_free(&machine);
  threads_ = threadBudget(static_cast<int>(std::thread::hardware_concurrency()), ranksOnMachine_);
  pinThreadBudget(threads_);
}

MpiDistribution::~MpiDistribution() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

std::string MpiDistribution::description() const {
  return "MPI, " + std::to_string(size_) + " rank" + (size_ == 1 ? "" : "s") + " (" + std::to_string(ranksOnMachine_) +
         " on this machine, " + std::to_string(threads_) + " thread" + (threads_ == 1 ? "" : "s") + " each)";
}

std::vector<TaskResult> MpiDistribution::runAll(int count, const std::function<std::string(int index)>& task) {
  injectFault(rank_, ++calls_);
  ByteWriter mine;
  for (int i = rank_; i < count; i += size_) {
    const TaskResult r = runTask(task, i);
    mine.add(i).add(static_cast<int>(r.error)).add(r.message).add(r.bytes);
  }
  const std::string& bytes = mine.bytes();
  if (bytes.size() > static_cast<size_t>(INT_MAX)) throw std::runtime_error("MPI: a rank's task results exceed 2 GiB");
  const double limit = waitLimit_;
  const Clock::time_point finished = Clock::now();

  int myLength = static_cast<int>(bytes.size());
  std::vector<int> lengths(size_);
  MPI_Request request;
  MPI_Iallgather(&myLength, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD, &request);
  waitBounded(request, finished, limit, rank_, "result sizes");
  std::vector<int> offsets(size_, 0);
  long long total = 0;
  for (int r = 0; r < size_; ++r) {
    offsets[r] = static_cast<int>(total);
    total += lengths[r];
    if (total > INT_MAX) throw std::runtime_error("MPI: the gathered task results exceed 2 GiB");
  }
  std::string all(static_cast<size_t>(total), '\0');
  MPI_Iallgatherv(bytes.data(), myLength, MPI_BYTE, all.data(), lengths.data(), offsets.data(), MPI_BYTE,
                  MPI_COMM_WORLD, &request);
  waitBounded(request, finished, limit, rank_, "results");

  std::vector<TaskResult> results(count);
  std::vector<bool> seen(count, false);
  ByteReader reader(all);
  while (!reader.atEnd()) {
    const int i = static_cast<int>(reader.integer());
    if (i < 0 || i >= count || seen[i]) throw std::runtime_error("MPI: task results out of order");
    seen[i] = true;
    results[i].error = static_cast<TaskResult::Error>(reader.integer());
    results[i].message = reader.text();
    results[i].bytes = reader.text();
  }
  for (int i = 0; i < count; ++i)
    if (!seen[i]) throw std::runtime_error("MPI: the result of task " + std::to_string(i) + " is missing");
  return results;
}

}  // namespace softfit::apps

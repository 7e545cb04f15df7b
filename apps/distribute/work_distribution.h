#pragma once
// Independent tasks (multi-start fits, sweep points) spread over processes. One
// interface, two implementations: SerialDistribution (this process runs every task, in
// order) and, when softfit is built with MPI and launched by mpirun or srun, the MPI one
// (mpi_distribution.cpp: task i runs on rank i mod K, every rank gets every result).
// Tasks must be independent and deterministic: a task's result may depend only on its
// index, never on which tasks ran before it in the same process. Then the gathered
// results, and everything computed from them, are the same bits for any rank count.
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace softfit::apps {

// A task's result as bytes (see result_bytes.h), or the error it ended with.
struct TaskResult {
  enum class Error { None, Input, Solve, Other };  // InputError, SolveError, anything else
  std::string bytes;
  Error error = Error::None;
  std::string message;  // the error's message
  // Throws the error again as its type (InputError, SolveError, std::runtime_error).
  void rethrow() const;
};

class WorkDistribution {
 public:
  virtual ~WorkDistribution() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  bool isRoot() const { return rank() == 0; }
  // "serial" or "MPI, 3 ranks (1 thread each)" for logs.
  virtual std::string description() const = 0;
  // Runs task(i) for this process' share of [0, count) and returns every task's result,
  // in index order, on every process. Exceptions thrown by a task are caught and
  // returned as its error. A process that dies ends the job through the launcher
  // (mpirun, srun); with a wait limit, a process that does not deliver its results
  // within that many seconds after this one finished its share (a hung rank) ends the
  // whole job with a message (exit 4).
  virtual std::vector<TaskResult> runAll(int count, const std::function<std::string(int index)>& task) = 0;
  // Seconds; 0 = wait as long as it takes (the default).
  void setWaitLimit(double seconds) { waitLimit_ = seconds; }
  double waitLimit() const { return waitLimit_; }

 protected:
  double waitLimit_ = 0.0;
};

// Every task in this process, in order.
class SerialDistribution final : public WorkDistribution {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::string description() const override { return "serial"; }
  std::vector<TaskResult> runAll(int count, const std::function<std::string(int index)>& task) override;
};

// Runs one task, catching what it throws into TaskResult::error.
TaskResult runTask(const std::function<std::string(int index)>& task, int index);

}  // namespace softfit::apps

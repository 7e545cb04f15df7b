#pragma once
// WorkDistribution over MPI ranks (built only with MPI, SOFTFIT_HAVE_MPI). Task i runs
// on rank i mod K; the results are exchanged with non-blocking all-gathers, polled, so
// a rank that died or hangs ends the job after the wait limit (MPI_Abort, exit 4)
// instead of blocking forever. Each rank pins its thread budget (cores / ranks on its
// machine, thread_budget.h).
//
// Fault injection for the tests only: SOFTFIT_TEST_RANK_FAULT=kill:R or hang:R makes
// rank R kill itself (SIGKILL) or sleep forever when it is given its first tasks;
// kill:R@C / hang:R@C at its C-th runAll (e.g. a fit's bootstrap refits after the fit).
#include "apps/distribute/work_distribution.h"

namespace softfit::apps {

class MpiDistribution final : public WorkDistribution {
 public:
  MpiDistribution(int& argc, char**& argv);  // MPI_Init
  ~MpiDistribution() override;               // MPI_Finalize
  MpiDistribution(const MpiDistribution&) = delete;
  MpiDistribution& operator=(const MpiDistribution&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string description() const override;
  std::vector<TaskResult> runAll(int count, const std::function<std::string(int index)>& task) override;

 private:
  int rank_ = 0, size_ = 1, ranksOnMachine_ = 1, threads_ = 1;
  int calls_ = 0;  // runAll calls so far (fault injection)
};

}  // namespace softfit::apps

// The work distribution layer (apps/distribute/): the serial implementation, the result
// bytes and the thread budget in-process; the MPI cases run `softfit` under mpiexec
// (built with MPI only; otherwise they skip with a message): the same bits as serial on
// 2 and 3 ranks (sweep, multi-start fit, bootstrap refits), a dead or hung rank ends the
// job, other commands refuse to run there.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "apps/distribute/distribution_factory.h"
#include "apps/distribute/result_bytes.h"
#include "apps/distribute/thread_budget.h"
#include "apps/distribute/work_distribution.h"
#include "forward/errors.h"
#include "support/run_command.h"
#include "sweep_test_scene.h"

namespace softfit::apps {
namespace {

namespace fs = std::filesystem;
using softfit::testing::CommandResult;
using softfit::testing::fileBytes;

TEST(SerialDistribution, RunsEveryTaskInOrderAndCatchesErrorsByKind) {
  SerialDistribution serial;
  EXPECT_EQ(serial.rank(), 0);
  EXPECT_EQ(serial.size(), 1);
  std::vector<int> order;
  const auto results = serial.runAll(4, [&](int i) -> std::string {
    order.push_back(i);
    if (i == 1) throw InputError("bad input " + std::to_string(i));
    if (i == 2) throw SolveError("failed solve");
    return "task" + std::to_string(i);
  });
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].bytes, "task0");
  EXPECT_EQ(results[0].error, TaskResult::Error::None);
  EXPECT_EQ(results[1].error, TaskResult::Error::Input);
  EXPECT_EQ(results[1].message, "bad input 1");
  EXPECT_THROW(results[1].rethrow(), InputError);
  EXPECT_THROW(results[2].rethrow(), SolveError);
  EXPECT_NO_THROW(results[3].rethrow());
}

TEST(ResultBytes, RoundTripsEveryBit) {
  VecX v(3);
  v << -0.0, std::numeric_limits<double>::denorm_min(), 1.0 / 3.0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ByteWriter w;
  w.add(nan).add(std::int64_t{-7}).add(true).add(std::string("a,b\n")).add(v).add(VecX());
  ByteReader r(w.bytes());
  const double back = r.real();
  EXPECT_EQ(std::memcmp(&back, &nan, sizeof nan), 0);
  EXPECT_EQ(r.integer(), -7);
  EXPECT_TRUE(r.boolean());
  EXPECT_EQ(r.text(), "a,b\n");
  const VecX u = r.vector();
  ASSERT_EQ(u.size(), 3);
  EXPECT_EQ(std::memcmp(u.data(), v.data(), sizeof(double) * 3), 0);
  EXPECT_EQ(r.vector().size(), 0);
  EXPECT_TRUE(r.atEnd());
  EXPECT_THROW(r.real(), std::runtime_error);
}

TEST(ThreadBudget, SharesTheCoresAmongTheProcessesOfAMachine) {
  EXPECT_EQ(threadBudget(16, 4), 4);
  EXPECT_EQ(threadBudget(2, 2), 1);
  EXPECT_EQ(threadBudget(2, 3), 1);  // at least one
  EXPECT_EQ(threadBudget(8, 3), 2);
  EXPECT_EQ(threadBudget(0, 1), 1);
}

// ---- Under mpiexec ----

std::string mpiexec() { return SOFTFIT_MPIEXEC; }

// mpiexec -n K (oversubscribed: 3 ranks on a 2-core CI machine; as root too) softfit ...
CommandResult runMpi(int ranks, const std::string& arguments, const std::string& environment = "",
                     int timeoutSeconds = 300) {
  const std::string command = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + environment +
                              " timeout -k 5 " + std::to_string(timeoutSeconds) + " " + mpiexec() + " -n " +
                              std::to_string(ranks) + " --oversubscribe " + SOFTFIT_BINARY + " " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[512];
  while (fgets(buffer, sizeof(buffer), pipe)) output += buffer;
  const int status = pclose(pipe);
  return {WEXITSTATUS(status), output};
}

// A file without the columns / keys that hold wall-clock times.
std::string withoutTimes(const fs::path& path) {
  std::ifstream in(path);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.find("\"seconds\"") != std::string::npos) continue;  // result.json
    if (path.filename() == "history.csv") {  // iteration,evaluations,seconds,...
      std::stringstream fields(line);
      std::string field, kept;
      for (int k = 0; std::getline(fields, field, ','); ++k)
        if (k != 2) kept += field + ",";
      line = kept;
    }
    out += line + "\n";
  }
  return out;
}

class MpiRuns : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!builtWithMpi() || mpiexec().empty())
      GTEST_SKIP() << "softfit was built without MPI (install libopenmpi-dev and openmpi-bin, reconfigure)";
    std::string log;
    fixture_ = softfit::testing::makeSweepFixture(
        fs::temp_directory_path() / ("softfit_mpi_test_" + std::to_string(::getpid())), log);
    ASSERT_FALSE(fixture_.capture.empty()) << log;
  }
  void TearDown() override {
    if (!fixture_.dir.empty()) fs::remove_all(fixture_.dir);
  }
  std::string inputs() const {
    return fixture_.scene.string() + " --observations " + fixture_.capture.string();
  }
  // `args` + OUT under mpiexec -n 2 and -n 3 writes the fit files of the serial run in
  // serialOut, to the bit (history.csv and result.json but for their wall-clock seconds).
  void expectTwoAndThreeRanksWriteTheSerialFitFiles(const std::string& args, const fs::path& serialOut) {
    for (int ranks : {2, 3}) {
      const fs::path out = fixture_.dir / ("mpi" + std::to_string(ranks));
      const auto r = runMpi(ranks, args + out.string());
      ASSERT_EQ(r.exitCode, 0) << r.output;
      for (const char* f : {"starts.csv", "convergence.png", "run_complete.txt", "reconstruction/simulation.pvd",
                            "reconstruction/frames/frame_000010.vtu"})
        EXPECT_EQ(fileBytes((out / f).string()), fileBytes((serialOut / f).string())) << ranks << " " << f;
      for (const char* f : {"history.csv", "result.json"})  // but for the wall-clock times
        EXPECT_EQ(withoutTimes(out / f), withoutTimes(serialOut / f)) << ranks << " " << f;
    }
  }
  softfit::testing::SweepFixture fixture_;
};

TEST_F(MpiRuns, SweepOnTwoAndThreeRanksWritesTheSerialFilesToTheBit) {
  const std::string args = "sweep " + inputs() + " --grid E=2500:3500:3,nu=0.28:0.32:2 --gradient -q -o ";
  const auto serial = softfit::testing::runSoftfit(args + (fixture_.dir / "serial").string());
  ASSERT_EQ(serial.exitCode, 0) << serial.output;
  for (int ranks : {2, 3}) {
    const fs::path out = fixture_.dir / ("mpi" + std::to_string(ranks));
    const auto r = runMpi(ranks, args + out.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    for (const char* f : {"sweep.csv", "sweep.png", "run_complete.txt"})
      EXPECT_EQ(fileBytes((out / f).string()), fileBytes((fixture_.dir / "serial" / f).string())) << ranks << " " << f;
  }
}

TEST_F(MpiRuns, MultiStartFitOnTwoAndThreeRanksMatchesSerialToTheBit) {
  const std::string args =
      "fit " + inputs() + " --params E,nu --start E=4500,nu=0.36 --multi-start 3 --max-iterations 4 -q -o ";
  const fs::path serialOut = fixture_.dir / "serial";
  const auto serial = softfit::testing::runSoftfit(args + serialOut.string());
  ASSERT_EQ(serial.exitCode, 0) << serial.output;
  ASSERT_TRUE(fs::exists(serialOut / "starts.csv"));
  expectTwoAndThreeRanksWriteTheSerialFitFiles(args, serialOut);
}

// Bootstrap: 2 steps of 3 refits (own noise seeds) x 2 starts each, 6 tasks per step
// spread over the ranks (on 3 ranks a refit's two starts run on different ranks).
std::string bootstrapFitArgs(const std::string& inputs) {
  return "fit " + inputs +
         " --params E,nu --start E=4500,nu=0.36 --multi-start 2 --max-iterations 4 --noise-sigma 0.005"
         " --bootstrap-steps 2 --bootstrap-refits 3 --bootstrap-replicates 1 -q -o ";
}

TEST_F(MpiRuns, BootstrapFitOnTwoAndThreeRanksMatchesSerialToTheBit) {
  const std::string args = bootstrapFitArgs(inputs());
  const fs::path serialOut = fixture_.dir / "serial";
  const auto serial = softfit::testing::runSoftfit(args + serialOut.string());
  ASSERT_EQ(serial.exitCode, 0) << serial.output;
  EXPECT_NE(serial.output.find("bootstrap step 2, refit 2"), std::string::npos) << serial.output;
  const std::string serialResult = withoutTimes(serialOut / "result.json");
  EXPECT_NE(serialResult.find("\"refits\": 3"), std::string::npos) << serialResult;
  expectTwoAndThreeRanksWriteTheSerialFitFiles(args, serialOut);
}

TEST_F(MpiRuns, ARankThatHangsInTheBootstrapRefitsEndsTheJob) {
  // Rank 1 takes part in the plain fit (its first runAll) and hangs in the first
  // bootstrap step's refits (its second).
  const fs::path out = fixture_.dir / "out";
  const auto r = runMpi(2, bootstrapFitArgs(inputs()) + out.string() + " --rank-timeout 5",
                        "SOFTFIT_TEST_RANK_FAULT=hang:1@2", 120);
  EXPECT_EQ(r.exitCode, 4) << r.output;
  EXPECT_NE(r.output.find("bootstrap step 1, refit 0"), std::string::npos) << r.output;  // rank 0 got there
  EXPECT_NE(r.output.find("a rank died or hangs"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out / "result.json"));
}

TEST_F(MpiRuns, ADeadRankEndsTheJobWithAMessage) {
  const auto r = runMpi(2, "sweep " + inputs() + " --grid E=2500:3500:4 -q -o " + (fixture_.dir / "out").string(),
                        "SOFTFIT_TEST_RANK_FAULT=kill:1", 120);
  EXPECT_NE(r.exitCode, 0) << r.output;
  EXPECT_NE(r.exitCode, 124) << "hung: " << r.output;  // timeout(1)
  EXPECT_NE(r.output.find("rank 1"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(fixture_.dir / "out" / "sweep.csv"));
}

TEST_F(MpiRuns, AHungRankEndsTheJobAfterTheRankTimeout) {
  const auto r = runMpi(2,
                        "sweep " + inputs() + " --grid E=2500:3500:4 -q --rank-timeout 2 -o " +
                            (fixture_.dir / "out").string(),
                        "SOFTFIT_TEST_RANK_FAULT=hang:1", 120);
  EXPECT_EQ(r.exitCode, 4) << r.output;
  EXPECT_NE(r.output.find("a rank died or hangs"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(fixture_.dir / "out" / "sweep.csv"));
}

TEST_F(MpiRuns, OtherCommandsRefuseToRunAsSeveralProcesses) {
  const auto r = runMpi(2, "simulate " + fixture_.scene.string() + " -o " + (fixture_.dir / "sim").string());
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("does not run under MPI"), std::string::npos) << r.output;
}

TEST_F(MpiRuns, HelpWithoutASubcommandPrintsTheHelpOnce) {
  const auto r = runMpi(2, "--help");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output.find("does not run under MPI"), std::string::npos) << r.output;
  const std::string title = "differentiable simulation of elastic solids";
  const std::size_t first = r.output.find(title);
  ASSERT_NE(first, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(title, first + 1), std::string::npos) << "printed twice:\n" << r.output;
}

}  // namespace
}  // namespace softfit::apps

#include "forward/io/pvd_writer.h"

#include <gtest/gtest.h>

#include "forward/errors.h"
#include "forward/mesh/temp_directory.h"
#include "io_test_support.h"

namespace softfit {
namespace {

using testing::countOccurrences;
using testing::readFile;

TEST(PvdWriter, WritesValidCollectionAfterEveryStep) {
  TempDirectory dir;
  const std::string path = dir.file("run.pvd");
  PvdWriter pvd(path);
  EXPECT_NE(readFile(path).find("<Collection>\n  </Collection>"), std::string::npos);
  for (int step = 0; step < 3; ++step) {
    pvd.addTimestep(0.1 * step, dir.file("frames/frame_" + std::to_string(step) + ".vtu"));
    const std::string text = readFile(path);
    EXPECT_EQ(countOccurrences(text, "<DataSet "), step + 1);
    EXPECT_NE(text.find("</VTKFile>"), std::string::npos);  // complete after every call
  }
  pvd.finalize();
  pvd.finalize();  // idempotent
  EXPECT_EQ(pvd.timestepCount(), 3);
  const std::string text = readFile(path);
  EXPECT_NE(text.find("<VTKFile type=\"Collection\""), std::string::npos);
  EXPECT_NE(text.find("timestep=\"0.10000000000000001\" group=\"\" part=\"0\" file=\"frames/frame_1.vtu\""),
            std::string::npos)
      << text;
  EXPECT_THROW(pvd.addTimestep(1.0, dir.file("late.vtu")), InputError);
}

TEST(PvdWriter, DeterministicOutput) {
  TempDirectory dir;
  for (const char* name : {"a.pvd", "b.pvd"}) {
    PvdWriter pvd(dir.file(name));
    pvd.addTimestep(0.0, dir.file("f0.vtu"));
    pvd.addTimestep(1.0 / 3.0, dir.file("f1 & <odd>.vtu"));
    pvd.finalize();
  }
  const std::string a = readFile(dir.file("a.pvd"));
  EXPECT_EQ(a, readFile(dir.file("b.pvd")));
  EXPECT_NE(a.find("file=\"f1 &amp; &lt;odd&gt;.vtu\""), std::string::npos) << a;
}

TEST(PvdWriter, UnwritablePathIsReported) {
  TempDirectory dir;
  const std::string bad = dir.file("missing/run.pvd");
  try {
    PvdWriter pvd(bad);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace softfit

// input_file: a path must be a regular file before it is opened, so a FIFO (which would
// block), a folder or a device such as /dev/zero (read until memory runs out) is an
// InputError naming the path.
#include "forward/mesh/input_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "forward/mesh/medit_reader.h"
#include "forward/mesh/temp_directory.h"
#include "mesh_test_support.h"

namespace softfit {
namespace {

using testing::writeTextFile;

TEST(InputFile, ReadsARegularFileAndAcceptsAFolderWhereOneIsExpected) {
  TempDirectory dir;
  writeTextFile(dir.file("a.txt"), "hello\n");
  EXPECT_EQ(readInputFile(dir.file("a.txt")), "hello\n");
  EXPECT_NO_THROW(requireFolder(dir.path()));
}

TEST(InputFile, CountsAreCheckedAgainstTheBytesThatCanHoldThem) {
  EXPECT_FALSE(countExceedsFile(65536, 100, 10));        // small counts: left to the reader's end-of-file message
  EXPECT_TRUE(countExceedsFile(2000000000, 10, 1000));   // MEDIT "Tetrahedra 2000000000"
  EXPECT_FALSE(countExceedsFile(100000, 10, 1000000));   // fits
}

TEST(InputFile, RefusesFifosFoldersDevicesAndMissingFilesNamingThePath) {
  TempDirectory dir;
  ASSERT_EQ(::mkfifo(dir.file("pipe.mesh").c_str(), 0600), 0);
  std::filesystem::create_directory(dir.file("folder.mesh"));
  EXPECT_INPUT_ERROR(readInputFile(dir.file("pipe.mesh")), "pipe.mesh", "FIFO");
  EXPECT_INPUT_ERROR(openInputFile(dir.file("folder.mesh"), "mesh"), "folder.mesh", "cannot open mesh", "folder");
  EXPECT_INPUT_ERROR(readInputFile("/dev/zero"), "/dev/zero", "device");
  EXPECT_INPUT_ERROR(readInputFile(dir.file("none")), "none", "does not exist");
  EXPECT_INPUT_ERROR(requireFolder(dir.file("pipe.mesh"), "capture folder"), "pipe.mesh", "capture folder",
                     "not a folder");
  // A reader built on the helper: the MEDIT reader on a pipe returns at once.
  EXPECT_INPUT_ERROR(readMeditMesh(dir.file("pipe.mesh")), "pipe.mesh", "FIFO");
}

}  // namespace
}  // namespace softfit

// RunChild runs, captures and reports; ScratchDir cleans up everything it holds.
#include "twin/common/process/child_process.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

namespace {

using asc_twin::process::ChildIo;
using asc_twin::process::DescribeStatus;
using asc_twin::process::RunChild;
using asc_twin::process::ScratchDir;

std::string Slurp(const std::string &path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(ChildProcess, CapturesOutputAndStatusWithTheGivenEnvironment) {
  ScratchDir dir("child_process_test");
  ASSERT_FALSE(dir.path().empty()) << dir.error();
  const std::string out = dir.path() + "/out.log";
  const std::vector<std::string> env = {"TWIN_CHILD_VALUE=41"};
  std::string error;
  ChildIo io;
  io.output_path = out;
  io.env = &env;
  const int status =
      RunChild({"/bin/sh", "-c", "echo out $TWIN_CHILD_VALUE; echo err >&2; read x; exit 3"}, io, &error);
  ASSERT_GE(status, 0) << error;
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);  // stdin is /dev/null: `read` ends at once
  EXPECT_EQ(DescribeStatus(status), "exit status 3");
  EXPECT_EQ(Slurp(out), "out 41\nerr\n");
}

TEST(ChildProcess, ReportsSignalsAndProgramsThatCannotStart) {
  std::string error;
  ChildIo io;
  io.search_path = true;
  const int status = RunChild({"sh", "-c", "kill -SEGV $$"}, io, &error);
  ASSERT_GE(status, 0) << error;
  EXPECT_EQ(DescribeStatus(status), "killed by signal 11 (SIGSEGV)");
  EXPECT_EQ(RunChild({"/nonexistent/prog"}, ChildIo{}, &error), -1);
  EXPECT_EQ(error, "cannot start /nonexistent/prog: No such file or directory");
}

TEST(ScratchDir, IsPrivateAndRemovedWithWhatItHolds) {
  std::string path;
  {
    ScratchDir dir("child_process_test");
    path = dir.path();
    struct stat info {};
    ASSERT_EQ(stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0700u);
    ASSERT_EQ(mkdir((path + "/sub").c_str(), 0700), 0);
    std::ofstream(path + "/sub/file") << "x";
    ASSERT_EQ(symlink("/etc/passwd", (path + "/link").c_str()), 0);  // removed, not followed
  }
  EXPECT_NE(access(path.c_str(), F_OK), 0);
  EXPECT_EQ(access("/etc/passwd", F_OK), 0);
}

}  // namespace

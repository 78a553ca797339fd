// libunified_dlog.so as a CANN program uses it: the level rules of the environment, a level the
// program sets with dlog_setlevel, and the lines DlogRecord / dlog_error write into the plog.
#include <dirent.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "toolchain/slog.h"

namespace {

// Everything written under <root>/debug/plog.
std::string DebugPlog(const std::string& root) {
  std::string all;
  const std::string dir = root + "/debug/plog";
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return all;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream in(dir + "/" + e->d_name);
    std::stringstream ss;
    ss << in.rdbuf();
    all += ss.str();
  }
  closedir(d);
  return all;
}

class DlogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/dlog_test_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    setenv("ASCEND_PROCESS_LOG_PATH", root_.c_str(), 1);
    unsetenv("ASCEND_GLOBAL_LOG_LEVEL");
    unsetenv("ASCEND_MODULE_LOG_LEVEL");
    unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    // a level set by an earlier test stays for the process: every test starts from the
    // documented default (error), set for all modules
    dlog_setlevel(-1, DLOG_ERROR, 1);
  }
  std::string root_;
};

TEST_F(DlogTest, DefaultLevelIsErrorAndSetLevelLowersIt) {
  int event = -1;
  EXPECT_EQ(dlog_getlevel(GE, &event), DLOG_ERROR);
  EXPECT_EQ(event, 1);
  EXPECT_EQ(CheckLogLevel(GE, DLOG_INFO), 0);
  EXPECT_EQ(CheckLogLevel(GE, DLOG_ERROR), 1);
  EXPECT_EQ(dlog_setlevel(GE, DLOG_INFO, 0), 0);
  EXPECT_EQ(CheckLogLevel(GE, DLOG_INFO), 1);
  EXPECT_EQ(CheckLogLevel(ASCENDCL, DLOG_INFO), 0);  // other modules keep their level
  EXPECT_EQ(dlog_getlevel(GE, &event), DLOG_INFO);
  EXPECT_EQ(event, 0);
}

TEST_F(DlogTest, BadLevelIsRefused) {
  EXPECT_EQ(dlog_setlevel(GE, 7, 1), -1);
  EXPECT_EQ(CheckLogLevel(GE, 9), 0);
  const std::string log = DebugPlog(root_);
  EXPECT_NE(log.find("dlog_setlevel: level 7 is not one of DLOG_DEBUG (0) .. DLOG_NULL (4)"), std::string::npos) << log;
}

TEST_F(DlogTest, RecordWritesPlogLinesTheLevelLetsThrough) {
  DlogRecord(ASCENDCKERNEL, DLOG_INFO, "hidden %d", 1);
  DlogRecord(ASCENDCKERNEL, DLOG_ERROR, "tiling failed: %s", "bad shape");
  dlog_error(OP, "op %d", 42);
  std::string log = DebugPlog(root_);
  EXPECT_EQ(log.find("hidden 1"), std::string::npos) << log;
  EXPECT_NE(log.find("[ERROR] ASCENDCKERNEL("), std::string::npos) << log;
  EXPECT_NE(log.find("tiling failed: bad shape"), std::string::npos) << log;
  EXPECT_NE(log.find("[dlog_test.cc:"), std::string::npos) << log;  // the macro's file and line
  EXPECT_NE(log.find("op 42"), std::string::npos) << log;
  dlog_setlevel(ASCENDCKERNEL, DLOG_DEBUG, 1);
  DlogDebugInner(ASCENDCKERNEL, "now shown %d", 2);
  log = DebugPlog(root_);
  EXPECT_NE(log.find("[DEBUG] ASCENDCKERNEL("), std::string::npos) << log;
  EXPECT_NE(log.find("now shown 2"), std::string::npos) << log;
}

}  // namespace

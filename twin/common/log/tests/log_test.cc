// The C++ logger: level filtering, the path variables, file naming, the line format, concurrent
// writers (threads and processes), stdout mode, the stderr fallback and the recent errors.
#include "twin/common/log/log.h"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace {

using ascend_twin::log::Level;

const char *const kVars[] = {"ASCEND_PROCESS_LOG_PATH",     "ASCEND_WORK_PATH",
                             "ASCEND_GLOBAL_LOG_LEVEL",     "ASCEND_MODULE_LOG_LEVEL",
                             "ASCEND_SLOG_PRINT_TO_STDOUT", "ASCEND_GLOBAL_EVENT_ENABLE"};

std::string ReadAll(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> Lines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool Exists(const std::string &path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

// Every test starts with no log variable set and its own log root.
class LogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char *var : kVars) unsetenv(var);
    const char *base = std::getenv("TEST_TMPDIR");
    std::string templ = std::string(base ? base : "/tmp") + "/log_test_XXXXXX";
    std::vector<char> buffer(templ.begin(), templ.end());
    buffer.push_back('\0');
    ASSERT_NE(mkdtemp(buffer.data()), nullptr);
    root_ = buffer.data();
    setenv("ASCEND_PROCESS_LOG_PATH", root_.c_str(), 1);
  }
  void TearDown() override {
    for (const char *var : kVars) unsetenv(var);
  }
  std::string DebugFile() const { return root_ + "/debug/plog/" + ascend_twin::log::PlogFileName(); }
  std::string RunFile() const { return root_ + "/run/plog/" + ascend_twin::log::PlogFileName(); }

  std::string root_;
};

TEST_F(LogTest, DefaultLevelKeepsErrorsOnlyAndCreatesNothingUntilALineIsWritten) {
  ASCEND_TWIN_LOGW("GE", "a warning");
  ASCEND_TWIN_LOGI("GE", "an info line");
  ASCEND_TWIN_LOGD("GE", "a debug line");
  EXPECT_FALSE(Exists(root_ + "/debug")) << "no line passed the default level: no directory, no file";
  ASCEND_TWIN_LOGE("GE", "the error %d", 7);
  const std::vector<std::string> lines = Lines(ReadAll(DebugFile()));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("the error 7"), std::string::npos) << lines[0];
  EXPECT_FALSE(Exists(root_ + "/run")) << "no event was written";
}

TEST_F(LogTest, GlobalLevelFilters) {
  const struct {
    const char *value;
    int lines;  // of the four levels DEBUG..ERROR
  } cases[] = {{"0", 4}, {"1", 3}, {"2", 2}, {"3", 1}, {"4", 0}, {"7", 1}, {"", 1}, {"01", 1}, {"x", 1}};
  for (const auto &c : cases) {
    const std::string dir = root_ + "/level_" + std::to_string(&c - cases);
    setenv("ASCEND_PROCESS_LOG_PATH", dir.c_str(), 1);
    setenv("ASCEND_GLOBAL_LOG_LEVEL", c.value, 1);
    for (Level level : {Level::kDebug, Level::kInfo, Level::kWarning, Level::kError}) {
      ascend_twin::log::Write(level, "RUNTIME", __FILE__, __LINE__, "line");
    }
    const std::string file = dir + "/debug/plog/" + ascend_twin::log::PlogFileName();
    EXPECT_EQ(static_cast<int>(Lines(ReadAll(file)).size()), c.lines) << "ASCEND_GLOBAL_LOG_LEVEL='" << c.value << "'";
    if (c.lines == 0) EXPECT_FALSE(Exists(dir)) << "level 4 writes nothing, creates nothing";
  }
}

TEST_F(LogTest, ModuleLevelWinsForItsModuleOnly) {
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "3", 1);
  setenv("ASCEND_MODULE_LOG_LEVEL", "GE=0:ASCENDCL=4", 1);
  EXPECT_TRUE(ascend_twin::log::Enabled(Level::kDebug, "GE"));
  EXPECT_FALSE(ascend_twin::log::Enabled(Level::kError, "ASCENDCL"));
  EXPECT_FALSE(ascend_twin::log::Enabled(Level::kInfo, "RUNTIME"));
  EXPECT_TRUE(ascend_twin::log::Enabled(Level::kError, "RUNTIME"));
  EXPECT_FALSE(ascend_twin::log::Enabled(Level::kDebug, "G")) << "a prefix of a module name is not the module";
}

TEST_F(LogTest, LineHasCannsFormat) {
  ASCEND_TWIN_LOGE("ASCENDCL", "aclmdlLoadFromFile: built for Ascend310P3");
  const std::vector<std::string> lines = Lines(ReadAll(DebugFile()));
  ASSERT_EQ(lines.size(), 1u);
  const std::regex format(
      R"(\[ERROR\] ASCENDCL\((\d+),([^)]+)\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} \[log_test\.cc:\d+\](\d+) aclmdlLoadFromFile: built for Ascend310P3)");
  std::smatch match;
  ASSERT_TRUE(std::regex_match(lines[0], match, format)) << lines[0];
  EXPECT_EQ(std::stol(match[1]), static_cast<long>(getpid()));
  EXPECT_EQ(std::stol(match[3]), static_cast<long>(gettid()));
}

TEST_F(LogTest, FileIsNamedByPidAndProcessStartTime) {
  const std::string name = ascend_twin::log::PlogFileName();
  const std::regex pattern("plog-" + std::to_string(getpid()) + R"(_(\d{17})\.log)");
  std::smatch match;
  ASSERT_TRUE(std::regex_match(name, match, pattern)) << name;
  // The stamp is when this process started, i.e. (well) before now and the same at every call.
  char now[32];
  const time_t t = time(nullptr);
  struct tm local;
  localtime_r(&t, &local);
  strftime(now, sizeof(now), "%Y%m%d%H%M%S", &local);
  EXPECT_LE(match[1].str().substr(0, 14), std::string(now));
  EXPECT_EQ(name, ascend_twin::log::PlogFileName());
  ASCEND_TWIN_EVENT("RUNTIME", "device process restarted");
  EXPECT_EQ(Lines(ReadAll(RunFile())).size(), 1u) << "events go to run/plog";
  EXPECT_FALSE(Exists(DebugFile())) << "an event is not a debug line";
  setenv("ASCEND_GLOBAL_EVENT_ENABLE", "0", 1);
  ASCEND_TWIN_EVENT("RUNTIME", "not written");
  EXPECT_EQ(Lines(ReadAll(RunFile())).size(), 1u);
}

TEST_F(LogTest, PathVariablesInCannsPriority) {
  const std::string work = root_ + "/work";
  const std::string home = root_ + "/home";
  const char *saved_home = std::getenv("HOME");
  const std::string old_home = saved_home ? saved_home : "";
  setenv("HOME", home.c_str(), 1);
  unsetenv("ASCEND_PROCESS_LOG_PATH");
  EXPECT_EQ(ascend_twin::log::LogRoot(), home + "/ascend/log");
  ASCEND_TWIN_LOGE("GE", "to home");
  EXPECT_TRUE(Exists(home + "/ascend/log/debug/plog/" + ascend_twin::log::PlogFileName()));
  setenv("ASCEND_WORK_PATH", work.c_str(), 1);
  EXPECT_EQ(ascend_twin::log::LogRoot(), work + "/log");
  setenv("ASCEND_PROCESS_LOG_PATH", (root_ + "/process").c_str(), 1);
  EXPECT_EQ(ascend_twin::log::LogRoot(), root_ + "/process");
  setenv("ASCEND_PROCESS_LOG_PATH", "", 1);
  EXPECT_EQ(ascend_twin::log::LogRoot(), work + "/log") << "an empty variable counts as unset";
  if (saved_home)
    setenv("HOME", old_home.c_str(), 1);
  else
    unsetenv("HOME");
}

TEST_F(LogTest, StdoutModePrintsInsteadOfFiles) {
  setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1);
  testing::internal::CaptureStdout();
  ASCEND_TWIN_LOGE("RUNTIME", "on the screen");
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("[ERROR] RUNTIME("), std::string::npos) << out;
  EXPECT_NE(out.find("on the screen\n"), std::string::npos) << out;
  EXPECT_FALSE(Exists(root_ + "/debug"));
}

TEST_F(LogTest, UnwritableDirectoryFallsBackToStderrOnce) {
  setenv("ASCEND_PROCESS_LOG_PATH", "/proc/self/no_such_dir", 1);
  testing::internal::CaptureStderr();
  ASCEND_TWIN_LOGE("GE", "first");
  ASCEND_TWIN_LOGE("GE", "second");
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("cannot write /proc/self/no_such_dir"), std::string::npos) << err;
  EXPECT_NE(err.find(" first\n"), std::string::npos) << err;
  EXPECT_NE(err.find(" second\n"), std::string::npos) << err;
}

TEST_F(LogTest, ControlCharactersCannotBreakALine) {
  const unsigned seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937 random(seed);
  std::string message;
  for (int i = 0; i < 200; ++i) message += static_cast<char>(random() % 256);
  message += "\n\x1b[2J";
  ascend_twin::log::Write(Level::kError, "GE", __FILE__, __LINE__, message);  // NULs included
  const std::vector<std::string> lines = Lines(ReadAll(DebugFile()));
  ASSERT_EQ(lines.size(), 1u) << "seed " << seed;
  EXPECT_EQ(lines[0].find('\x1b'), std::string::npos);
  EXPECT_NE(lines[0].find("\\x0a\\x1b[2J"), std::string::npos) << lines[0];
}

// Threads of this process and two device processes of it (forked) write at once: every line
// arrives whole.
TEST_F(LogTest, ConcurrentWritersNeverInterleaveInsideALine) {
  constexpr int kThreads = 6, kLinesPerWriter = 300;
  const std::string padding(200, 'p');
  std::vector<pid_t> children;
  for (int c = 0; c < 2; ++c) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ascend_twin::log::SetDeviceProcess(0, getppid());
      for (int i = 0; i < kLinesPerWriter; ++i)
        ASCEND_TWIN_LOGE("RUNTIME", "child%d line %d %s end", c, i, padding.c_str());
      _exit(0);
    }
    children.push_back(child);
  }
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &padding] {
      for (int i = 0; i < kLinesPerWriter; ++i)
        ASCEND_TWIN_LOGE("GE", "thread%d line %d %s end", t, i, padding.c_str());
    });
  }
  for (auto &thread : threads) thread.join();
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  const std::regex whole(
      R"(\[ERROR\] (GE|RUNTIME)\(\d+,[^)]+\):\S+ \[log_test\.cc:\d+\]\d+ (thread|child)\d line \d+ p{200} end)");
  const std::vector<std::string> host_lines = Lines(ReadAll(DebugFile()));
  EXPECT_EQ(host_lines.size(), static_cast<size_t>(kThreads * kLinesPerWriter));
  for (const auto &line : host_lines) ASSERT_TRUE(std::regex_match(line, whole)) << line;

  // The device processes write one file named by the host: debug/device-0/device-<host pid>_<stamp>.log.
  const std::string host_stamp =
      ascend_twin::log::PlogFileName().substr(ascend_twin::log::PlogFileName().find('_') + 1);
  const std::string device_file = root_ + "/debug/device-0/device-" + std::to_string(getpid()) + "_" + host_stamp;
  const std::vector<std::string> device_lines = Lines(ReadAll(device_file));
  EXPECT_EQ(device_lines.size(), static_cast<size_t>(2 * kLinesPerWriter)) << device_file;
  for (const auto &line : device_lines) ASSERT_TRUE(std::regex_match(line, whole)) << line;
}

TEST(RecentErrors, NewestFirstThenClearedPerThread) {
  EXPECT_EQ(ascend_twin::log::TakeRecentErrors(), nullptr);
  ascend_twin::log::KeepRecentError("first");
  ascend_twin::log::KeepRecentError("second\x01");
  std::thread other([] { EXPECT_EQ(ascend_twin::log::TakeRecentErrors(), nullptr) << "per thread"; });
  other.join();
  const char *taken = ascend_twin::log::TakeRecentErrors();
  ASSERT_NE(taken, nullptr);
  EXPECT_STREQ(taken, "second\\x01\nfirst");
  EXPECT_EQ(ascend_twin::log::TakeRecentErrors(), nullptr) << "obtains and clears";
  for (int i = 0; i < 40; ++i) ascend_twin::log::KeepRecentError("e" + std::to_string(i));
  const std::vector<std::string> kept = Lines(ascend_twin::log::TakeRecentErrors());
  ASSERT_EQ(kept.size(), 32u);
  EXPECT_EQ(kept.front(), "e39");
  EXPECT_EQ(kept.back(), "e8");
}

}  // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

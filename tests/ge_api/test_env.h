// Environment of the GE API gtests, from what tests/ge_api/BUILD.bazel passes:
//   GE_TEST_PYTHON_FILE  @python_venv//:interpreter_path.txt -> ASCEND_TWIN_PYTHON
//   CANN_HOME            //twin:cann_home                    -> ASCEND_HOME_PATH
//   OPP_ROOT, PLUGIN_FILE                                    -> ASCEND_CUSTOM_OPP_PATH
// plus a private kernel cache and TMPDIR under TEST_TMPDIR (so leftovers can be checked).
#ifndef TESTS_GE_API_TEST_ENV_H_
#define TESTS_GE_API_TEST_ENV_H_

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

namespace ge_api_test {

inline std::string Required(const char *name) {
  const char *value = getenv(name);
  if (value == nullptr || *value == '\0') {
    fprintf(stderr, "test environment lacks %s (see tests/ge_api/BUILD.bazel)\n", name);
    abort();
  }
  return value;
}

inline std::string AbsolutePath(const std::string &path) {
  char cwd[PATH_MAX];
  if (!path.empty() && path[0] == '/') return path;
  return std::string(getcwd(cwd, sizeof cwd)) + "/" + path;
}

inline std::string TestTmp() { return Required("TEST_TMPDIR"); }

// The directory the GE libraries create their temp files in (TMPDIR).
inline std::string GeTempDir() { return TestTmp() + "/ge_tmp"; }

inline void SetUpTwinEnvironment() {
  std::ifstream in(Required("GE_TEST_PYTHON_FILE"));
  std::string python;
  std::getline(in, python);
  setenv("ASCEND_TWIN_PYTHON", python.c_str(), 1);
  setenv("ASCEND_HOME_PATH", AbsolutePath(Required("CANN_HOME")).c_str(), 1);
  const std::string plugin_file = AbsolutePath(Required("PLUGIN_FILE"));
  const std::string plugin_dir = plugin_file.substr(0, plugin_file.find_last_of('/'));
  const std::string opp = AbsolutePath(Required("OPP_ROOT")) + ":" + plugin_dir;
  setenv("ASCEND_CUSTOM_OPP_PATH", opp.c_str(), 1);
  setenv("ASCEND_TWIN_KERNEL_CACHE", (TestTmp() + "/kernel_cache").c_str(), 1);
  mkdir(GeTempDir().c_str(), 0755);
  setenv("TMPDIR", GeTempDir().c_str(), 1);
}

inline std::vector<std::string> ListDir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (const dirent *e = readdir(d)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    closedir(d);
  }
  return names;
}

// Seed from GE_API_TEST_SEED or the clock; printed so a failure can be replayed.
inline unsigned TestSeed() {
  const char *fixed = getenv("GE_API_TEST_SEED");
  const unsigned seed = fixed != nullptr ? static_cast<unsigned>(strtoul(fixed, nullptr, 10))
                                         : static_cast<unsigned>(time(nullptr)) ^ static_cast<unsigned>(getpid());
  printf("seed %u (replay with GE_API_TEST_SEED=%u)\n", seed, seed);
  return seed;
}

}  // namespace ge_api_test

#endif  // TESTS_GE_API_TEST_ENV_H_

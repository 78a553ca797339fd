// Helpers shared by the graph library tests: seeded randomness, temp dirs, runfiles, C ABI calls.
#ifndef GE_TWIN_GRAPH_TESTS_TEST_SUPPORT_H_
#define GE_TWIN_GRAPH_TESTS_TEST_SUPPORT_H_

#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <ctime>
#include <string>

#include "ge_twin/graph_c_api.h"
#include "twin/graph/src/json.h"

namespace ge_twin_test {
// A generator seeded from GE_TWIN_TEST_SEED or the clock; the seed is printed for reproduction.
inline std::mt19937_64 SeededRng(const char *test_name) {
  uint64_t seed = 0;
  if (const char *env = std::getenv("GE_TWIN_TEST_SEED")) {
    seed = std::strtoull(env, nullptr, 10);
  } else {
    seed = static_cast<uint64_t>(std::random_device()()) << 32 ^ static_cast<uint64_t>(time(nullptr));
  }
  std::printf("[seed] %s: GE_TWIN_TEST_SEED=%llu\n", test_name, static_cast<unsigned long long>(seed));
  return std::mt19937_64(seed);
}

// uname -m: the <arch> directory of OPP library paths on this host.
inline std::string HostArch() {
  struct utsname u;
  return uname(&u) == 0 ? u.machine : "x86_64";
}

inline std::string MakeTempDir() {
  const char *base = std::getenv("TEST_TMPDIR");
  std::string templ = std::string(base != nullptr ? base : "/tmp") + "/ge_graph_test_XXXXXX";
  char *made = mkdtemp(&templ[0]);
  return made == nullptr ? "" : templ;
}

inline bool MakeDirs(const std::string &path) {
  std::string partial;
  std::stringstream parts(path);
  std::string part;
  if (!path.empty() && path[0] == '/') partial = "";
  while (std::getline(parts, part, '/')) {
    if (part.empty()) continue;
    partial += "/" + part;
    if (mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) return false;
  }
  return true;
}

inline std::string ReadFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void WriteFile(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

inline bool CopyFile(const std::string &from, const std::string &to) {
  std::ifstream in(from, std::ios::binary);
  if (!in) return false;
  std::ofstream out(to, std::ios::binary | std::ios::trunc);
  out << in.rdbuf();
  return static_cast<bool>(out);
}

// A Bazel runfile of this workspace (TEST_SRCDIR/TEST_WORKSPACE/<path>), or <path> outside Bazel.
inline std::string Runfile(const std::string &workspace_path) {
  const char *srcdir = std::getenv("TEST_SRCDIR");
  const char *workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || workspace == nullptr) return workspace_path;
  return std::string(srcdir) + "/" + workspace + "/" + workspace_path;
}

struct CResult {
  uint32_t status;
  std::string json;
  std::string error;
};

template <typename Fn, typename... Args>
CResult CallC(Fn fn, Args... args) {
  char *json = nullptr;
  char *error = nullptr;
  CResult r;
  r.status = fn(args..., &json, &error);
  r.json = json == nullptr ? "" : json;
  r.error = error == nullptr ? "" : error;
  GeTwinGraphFreeString(json);
  GeTwinGraphFreeString(error);
  return r;
}

inline ge_twin::json::Value ParseJson(const std::string &text) {
  ge_twin::json::Value v;
  std::string err;
  if (!ge_twin::json::Parse(text, &v, &err)) std::fprintf(stderr, "bad JSON (%s): %s\n", err.c_str(), text.c_str());
  return v;
}
}  // namespace ge_twin_test

#endif  // GE_TWIN_GRAPH_TESTS_TEST_SUPPORT_H_

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
#include <vector>

#include "ge_twin/graph_c_api.h"
#include "twin/graph/proto/graph_c_api.pb.h"

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

// One C ABI call: its status, the serialized response message and the error line.
struct CResult {
  uint32_t status;
  std::string bytes;
  std::string error;
  bool has_response;  // *out_data was set
};

template <typename Fn, typename... Args>
CResult CallC(Fn fn, Args... args) {
  void *data = nullptr;
  size_t size = 0;
  char *error = nullptr;
  CResult r;
  r.status = fn(args..., &data, &size, &error);
  r.has_response = data != nullptr;
  r.bytes = data == nullptr ? "" : std::string(static_cast<const char *>(data), size);
  r.error = error == nullptr ? "" : error;
  GeTwinGraphFreeBuffer(data);
  GeTwinGraphFreeString(error);
  return r;
}

// The response of a successful call as its ge.twin.capi message (empty if it does not parse).
template <typename Message>
Message Response(const CResult &r) {
  Message m;
  if (!m.ParseFromString(r.bytes)) std::fprintf(stderr, "response of %zu bytes does not parse\n", r.bytes.size());
  return m;
}

// Request building: one IR input slot with the given instances ({dims, dtype} each).
struct Meta {
  std::vector<int64_t> dims;
  int32_t dtype;
};
inline void AddSlot(::ge::twin::capi::InferRequest *request, const std::vector<Meta> &instances) {
  auto *slot = request->add_inputs();
  for (const auto &m : instances) {
    auto *meta = slot->add_instances();
    for (int64_t d : m.dims) meta->add_shape(d);
    meta->set_dtype(m.dtype);
  }
}
inline ::ge::twin::air::AttrValue *AddAttr(::ge::twin::capi::InferRequest *request, const std::string &name) {
  auto *attr = request->add_attrs();
  attr->set_name(name);
  return attr->mutable_value();
}
inline void AddCount(::ge::twin::capi::InferRequest *request, const std::string &name, uint32_t count) {
  auto *c = request->add_dynamic_output_counts();
  c->set_name(name);
  c->set_count(count);
}

inline CResult Infer(const ::ge::twin::capi::InferRequest &request) {
  const std::string bytes = request.SerializeAsString();
  return CallC(GeTwinGraphInferOp, static_cast<const void *>(bytes.data()), bytes.size());
}
}  // namespace ge_twin_test

#endif  // GE_TWIN_GRAPH_TESTS_TEST_SUPPORT_H_

#include "twin/runtime/tests/test_support.h"

#include <dirent.h>
#include <stdlib.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>

namespace asc_twin::rt::testing {
namespace {

std::map<std::string, std::string> &Paths() {
  static std::map<std::string, std::string> paths;
  return paths;
}

}  // namespace

const std::string &KernelPath(const std::string &key) {
  auto it = Paths().find(key);
  if (it == Paths().end()) {
    std::cerr << "test binary path --" << key << "=... was not given on the command line\n";
    std::abort();
  }
  return it->second;
}

std::vector<uint8_t> ReadFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::mt19937_64 &Rng() {
  static thread_local std::mt19937_64 rng;
  static thread_local std::string seeded_for;
  const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "";
  if (seeded_for != name) {
    const char *env = std::getenv("TEST_RANDOM_SEED");
    const uint64_t seed = env ? std::strtoull(env, nullptr, 10)
                              : static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    std::cout << "[seed] " << name << " TEST_RANDOM_SEED=" << seed << std::endl;
    rng.seed(seed);
    seeded_for = name;
  }
  return rng;
}

std::string TakeErrMsg() {
  const char *text = aclGetRecentErrMsg();
  return text ? text : "";
}

DeviceAddOperands::~DeviceAddOperands() {
  for (void *dev : {dx, dy, dz}) {
    if (dev != nullptr) {
      EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS) << TakeErrMsg();
    }
  }
}

void DeviceAddOperands::Upload(uint64_t n, float low, float high) {
  std::uniform_real_distribution<float> value(low, high);
  x.resize(n);
  y.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    x[i] = value(Rng());
    y[i] = value(Rng());
  }
  bytes = n * sizeof(float);
  ACL_OK(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_OK(aclrtMemcpy(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
}

void CheckVaddWorks(aclrtFuncHandle vadd, aclrtStream stream, uint32_t blocks) {
  std::uniform_int_distribution<uint64_t> size(1, 200000);
  const uint64_t n = size(Rng());
  DeviceAddOperands ops;
  ASSERT_NO_FATAL_FAILURE(ops.Upload(n, -100.0f, 100.0f));
  uint64_t args[4] = {reinterpret_cast<uint64_t>(ops.dx), reinterpret_cast<uint64_t>(ops.dy),
                      reinterpret_cast<uint64_t>(ops.dz), n};
  ACL_OK(aclrtLaunchKernel(vadd, blocks, args, sizeof(args), stream));
  ACL_OK(aclrtSynchronizeStream(stream));
  std::vector<float> z(n);
  ACL_OK(aclrtMemcpy(z.data(), ops.bytes, ops.dz, ops.bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(z[i], ops.x[i] + ops.y[i]) << "element " << i << " of " << n;
}

std::string MakeTempDir(const std::string &stem) {
  const char *tmp = std::getenv("TEST_TMPDIR");
  std::string templ = std::string(tmp ? tmp : "/tmp") + "/" + stem + "_XXXXXX";
  std::vector<char> buffer(templ.begin(), templ.end());
  buffer.push_back('\0');
  EXPECT_NE(mkdtemp(buffer.data()), nullptr) << templ;
  return buffer.data();
}

std::vector<std::string> LogLinesOf(const std::string &dir, const std::string &prefix) {
  std::vector<std::string> lines;
  DIR *d = opendir(dir.c_str());
  if (d == nullptr) return lines;
  while (dirent *entry = readdir(d)) {
    const std::string name = entry->d_name;
    if (name.rfind(prefix, 0) != 0) continue;
    std::ifstream in(std::string(dir).append("/").append(name));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  closedir(d);
  return lines;
}

void AclTest::SetUp() {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << TakeErrMsg();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << TakeErrMsg();
}

void AclTest::TearDown() {
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS) << TakeErrMsg();
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << TakeErrMsg();
}

}  // namespace asc_twin::rt::testing

// gtest's main plus --<key>=<path> arguments for the test binaries.
int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      const std::string key = arg.substr(2, eq - 2);
      std::map<std::string, std::string> &paths = asc_twin::rt::testing::Paths();
      paths[key] = arg.substr(eq + 1);
    }
  }
  return RUN_ALL_TESTS();
}

#include "twin/runtime/tests/test_support.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>

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

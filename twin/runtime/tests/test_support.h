// Shared helpers for the runtime tests: paths of the test device binaries (passed as
// --<key>=<path> arguments by BUILD.bazel), file reading, a seeded RNG, an ACL session.
#ifndef TWIN_RUNTIME_TESTS_TEST_SUPPORT_H_
#define TWIN_RUNTIME_TESTS_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace asc_twin::rt::testing {

// Keys: k2201 (device binary for NpuArch 2201), k3510 (same, built for 3510), knometa (no
// .ascend.meta), khost (bisheng-style host object holding k2201 in .aicore_binary).
const std::string &KernelPath(const std::string &key);
std::vector<uint8_t> ReadFile(const std::string &path);

// One RNG per test, seeded from TEST_RANDOM_SEED or the clock; the seed is printed.
std::mt19937_64 &Rng();

// Returns and clears this thread's recent ACL error text ("" if none).
std::string TakeErrMsg();

// aclInit + aclrtSetDevice(0) in SetUp, the reverse in TearDown.
class AclTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
};

}  // namespace asc_twin::rt::testing

#define ACL_OK(expr) ASSERT_EQ((expr), ACL_SUCCESS) << #expr << ": " << ::asc_twin::rt::testing::TakeErrMsg()

#endif  // TWIN_RUNTIME_TESTS_TEST_SUPPORT_H_

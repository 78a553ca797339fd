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

// Operands of an elementwise add on the device: x and y hold n random floats (uniform in
// [low, high), drawn from Rng() alternately) and dx, dy their device copies; dz is an
// uninitialised device output of the same size. The destructor frees the device buffers, so a
// test that fails half way leaks nothing.
struct DeviceAddOperands {
  DeviceAddOperands() = default;
  ~DeviceAddOperands();
  DeviceAddOperands(const DeviceAddOperands &) = delete;
  DeviceAddOperands &operator=(const DeviceAddOperands &) = delete;

  // Draws x and y, allocates dx, dy, dz and copies x and y in; an ACL failure is fatal, so call
  // it under ASSERT_NO_FATAL_FAILURE.
  void Upload(uint64_t n, float low, float high);

  std::vector<float> x, y;
  size_t bytes = 0;
  void *dx = nullptr, *dy = nullptr, *dz = nullptr;
};

// Launches `vadd` (vadd_f32 of the k2201 binary) on random data of random size with `blocks`
// blocks on `stream` and checks z == x + y exactly: the device works. Call it under
// ASSERT_NO_FATAL_FAILURE.
void CheckVaddWorks(aclrtFuncHandle vadd, aclrtStream stream, uint32_t blocks);

// A fresh directory under TEST_TMPDIR (or /tmp) named <stem>_XXXXXX.
std::string MakeTempDir(const std::string &stem);

// The lines of every file in `dir` whose name starts with `prefix` (log files).
std::vector<std::string> LogLinesOf(const std::string &dir, const std::string &prefix);

// aclInit + aclrtSetDevice(0) in SetUp, the reverse in TearDown.
class AclTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
};

}  // namespace asc_twin::rt::testing

#define ACL_OK(expr) ASSERT_EQ((expr), ACL_SUCCESS) << #expr << ": " << ::asc_twin::rt::testing::TakeErrMsg()

#endif  // TWIN_RUNTIME_TESTS_TEST_SUPPORT_H_

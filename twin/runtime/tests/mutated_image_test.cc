// Mutated kernel images through the whole ACL load path (host reader -> device process ->
// validator -> dlopen -> launch): whatever the bytes, the host gets an error code or a working
// binary, never a crash or a hang, and a good binary still loads and computes afterwards.
// MUTATION_RUNS (default 3000) sets the count; the seed is printed (TEST_RANDOM_SEED).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <vector>

#include "twin/runtime/tests/mutate_bytes.h"
#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

class MutatedImage : public AclTest {};

TEST_F(MutatedImage, NeverHurtsTheHost) {
  const char *env = std::getenv("MUTATION_RUNS");
  const long runs = env != nullptr ? std::atol(env) : 3000;
  const std::vector<uint8_t> seeds[] = {ReadFile(KernelPath("k2201")), ReadFile(KernelPath("khost")),
                                        ReadFile(KernelPath("kfault"))};
  std::map<aclError, long> outcomes;
  aclrtStream stream = nullptr;
  ACL_OK(aclrtCreateStream(&stream));
  ACL_OK(aclrtSetOpExecuteTimeOut(2));
  long slow = 0;
  double slowest = 0;
  const auto started = std::chrono::steady_clock::now();
  for (long run = 0; run < runs; ++run) {
    const auto run_start = std::chrono::steady_clock::now();
    if (run > 0 && run % 50000 == 0) {
      std::cout << "[mutation] " << run << " runs, " << slow << " slower than 1 s" << std::endl;
    }
    std::vector<uint8_t> bytes = seeds[Rng()() % 3];
    MutateBytes(&bytes, Rng());
    aclrtBinHandle bin = nullptr;
    aclError code = aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &bin);
    if (code == ACL_SUCCESS) {
      aclrtFuncHandle empty = nullptr;
      if (aclrtBinaryGetFunction(bin, "empty_kernel", &empty) == ACL_SUCCESS) {
        uint64_t none = 0;
        code = aclrtLaunchKernel(empty, 2, &none, sizeof(none), stream);
        if (code == ACL_SUCCESS) code = aclrtSynchronizeStream(stream);
      }
      EXPECT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
    }
    const std::string message = TakeErrMsg();
    ++outcomes[code];
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
    if (seconds > 1.0) {
      ++slow;
      std::cout << "[mutation] run " << run << " took " << seconds << " s: " << code << " " << message << std::endl;
    }
    slowest = std::max(slowest, seconds);
  }
  std::cout << "[mutation] " << runs << " runs in "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() << " s, slowest "
            << slowest << " s, " << slow << " slower than 1 s" << std::endl;
  for (const auto &[code, count] : outcomes) std::cout << "[mutation] code " << code << ": " << count << std::endl;
  // Still healthy: a good image loads and computes.
  aclrtBinHandle good = nullptr;
  ACL_OK(aclrtBinaryLoadFromData(seeds[0].data(), seeds[0].size(), nullptr, &good));
  aclrtFuncHandle vadd = nullptr;
  ACL_OK(aclrtBinaryGetFunction(good, "vadd_f32", &vadd));
  DeviceAddOperands ops;
  ASSERT_NO_FATAL_FAILURE(ops.Upload(4099, -1.0f, 1.0f));
  uint64_t args[4] = {reinterpret_cast<uint64_t>(ops.dx), reinterpret_cast<uint64_t>(ops.dy),
                      reinterpret_cast<uint64_t>(ops.dz), 4099};
  ACL_OK(aclrtLaunchKernel(vadd, 3, args, sizeof(args), stream));
  ACL_OK(aclrtSynchronizeStream(stream));
  std::vector<float> z(4099);
  ACL_OK(aclrtMemcpy(z.data(), ops.bytes, ops.dz, ops.bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < z.size(); ++i) ASSERT_EQ(z[i], ops.x[i] + ops.y[i]);
  ACL_OK(aclrtBinaryUnLoad(good));
  ACL_OK(aclrtSetOpExecuteTimeOut(0));
  ACL_OK(aclrtDestroyStream(stream));
}

}  // namespace
}  // namespace asc_twin::rt::testing

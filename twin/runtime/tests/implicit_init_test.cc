// A CANN program that never calls aclInit (12 of 24 public samples, 39 folders of asc-devkit's
// examples/01_simd_cpp_api): ACL initializes itself on first use, as CANN does. Every test ends
// with aclFinalize, so each starts with ACL not initialized.
#include <atomic>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

// The user's program: aclrtSetDevice first, host and device memory, copies, a kernel, the
// result checked — no aclInit anywhere; then the samples' aclrtResetDevice + aclFinalize.
TEST(ImplicitInit, ProgramWithoutAclInitRunsAKernel) {
  ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ACL_OK(aclrtCreateStream(&stream));
  const uint64_t n = 1 + Rng()() % 70000;
  const size_t bytes = n * sizeof(float);
  float *x_host = nullptr, *y_host = nullptr, *z_host = nullptr;
  ACL_OK(aclrtMallocHost(reinterpret_cast<void **>(&x_host), bytes));
  ACL_OK(aclrtMallocHost(reinterpret_cast<void **>(&y_host), bytes));
  ACL_OK(aclrtMallocHost(reinterpret_cast<void **>(&z_host), bytes));
  ASSERT_NE(x_host, nullptr);  // the crash the user saw: the pointer stayed NULL
  std::uniform_real_distribution<float> value(-100.0f, 100.0f);
  for (uint64_t i = 0; i < n; ++i) {
    x_host[i] = value(Rng());
    y_host[i] = value(Rng());
  }
  void *x_dev = nullptr, *y_dev = nullptr, *z_dev = nullptr;
  ACL_OK(aclrtMalloc(&x_dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtMalloc(&y_dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtMalloc(&z_dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtMemcpy(x_dev, bytes, x_host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_OK(aclrtMemcpy(y_dev, bytes, y_host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  const std::vector<uint8_t> image = ReadFile(KernelPath("k2201"));
  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle vadd = nullptr;
  ACL_OK(aclrtBinaryLoadFromData(image.data(), image.size(), nullptr, &bin));
  ACL_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &vadd));
  uint64_t args[4] = {reinterpret_cast<uint64_t>(x_dev), reinterpret_cast<uint64_t>(y_dev),
                      reinterpret_cast<uint64_t>(z_dev), n};
  ACL_OK(aclrtLaunchKernel(vadd, 8, args, sizeof(args), stream));
  ACL_OK(aclrtSynchronizeStream(stream));
  ACL_OK(aclrtMemcpy(z_host, bytes, z_dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(z_host[i], x_host[i] + y_host[i]) << "element " << i;

  ACL_OK(aclrtBinaryUnLoad(bin));
  for (void *p : {x_dev, y_dev, z_dev}) ACL_OK(aclrtFree(p));
  for (float *p : {x_host, y_host, z_host}) ACL_OK(aclrtFreeHost(p));
  ACL_OK(aclrtDestroyStream(stream));
  ACL_OK(aclrtResetDevice(0));
  ACL_OK(aclFinalize());  // finalizes what the first use initialized
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  TakeErrMsg();
}

// aclInit after an implicit initialization succeeds (once) and keeps the live state: what was
// allocated before it stays valid. A second aclInit is ACL_ERROR_REPEAT_INITIALIZE, as always.
TEST(ImplicitInit, AclInitAfterFirstUseSucceedsOnceAndKeepsState) {
  uint32_t count = 0;
  ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, 1u);
  EXPECT_NE(aclrtGetSocName(), nullptr);
  ACL_OK(aclrtSetDevice(0));
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_NORMAL_ONLY));
  ACL_OK(aclInit(nullptr));
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_NE(TakeErrMsg().find("already initialized"), std::string::npos);
  int32_t device = -1;
  ACL_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 0);
  ACL_OK(aclrtMemset(dev, 256, 0x5a, 256));
  ACL_OK(aclrtFree(dev));
  ACL_OK(aclrtResetDevice(0));
  ACL_OK(aclFinalize());
  // After aclFinalize the next use initializes again; aclInit then succeeds again.
  ACL_OK(aclrtSetDevice(0));
  ACL_OK(aclInit(nullptr));
  ACL_OK(aclrtResetDevice(0));
  ACL_OK(aclFinalize());
}

// Many threads make their first ACL call at once: one runtime, every call succeeds.
TEST(ImplicitInit, ConcurrentFirstUseInitializesOnce) {
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  threads.reserve(8);
  std::vector<void *> memory(8, nullptr);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([t, &failures, &memory] {
      if (aclrtSetDevice(0) != ACL_SUCCESS) ++failures;
      if (aclrtMalloc(&memory[t], 4096, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) ++failures;
    });
  }
  for (auto &thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0) << TakeErrMsg();
  for (void *p : memory) ACL_OK(aclrtFree(p));  // allocations of all threads live in one runtime
  ACL_OK(aclFinalize());
}

// A model call without aclInit: the runtime comes up and the model's own check answers.
TEST(ImplicitInit, ModelLoadWithoutAclInitReachesTheModelCheck) {
  ACL_OK(aclrtSetDevice(0));
  const char garbage[64] = "not an OM";
  uint32_t id = 0;
  const aclError got = aclmdlLoadFromMem(garbage, sizeof(garbage), &id);
  EXPECT_NE(got, ACL_SUCCESS);
  EXPECT_NE(got, ACL_ERROR_UNINITIALIZE);
  TakeErrMsg();
  ACL_OK(aclrtResetDevice(0));
  ACL_OK(aclFinalize());
}

}  // namespace
}  // namespace asc_twin::rt::testing

// End to end through the ACL C API with a real (hand-written, ABI-conforming) device binary:
// load from data / file / host object, look kernels up, launch with several block counts on
// random data, traps naming kernel and block, recovery, concurrent streams.
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "asc_twin/aicore_abi.h"
#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

bool Contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

class Launch : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    bytes_ = ReadFile(KernelPath("k2201"));
    ACL_OK(aclrtBinaryLoadFromData(bytes_.data(), bytes_.size(), nullptr, &bin_));
  }
  void TearDown() override {
    EXPECT_EQ(aclrtBinaryUnLoad(bin_), ACL_SUCCESS) << TakeErrMsg();
    AclTest::TearDown();
  }
  aclrtFuncHandle Function(const char *name) {
    aclrtFuncHandle func = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(bin_, name, &func), ACL_SUCCESS) << TakeErrMsg();
    return func;
  }
  // Runs vadd_f32 on n random floats with `blocks` blocks on `stream`; checks every element.
  void CheckVadd(aclrtFuncHandle vadd, uint64_t n, uint32_t blocks, aclrtStream stream) {
    DeviceAddOperands ops;
    ASSERT_NO_FATAL_FAILURE(ops.Upload(n, -1000.0f, 1000.0f));
    std::vector<float> z(n, 0.0f);
    ACL_OK(aclrtMemset(ops.dz, ops.bytes, 0xff, ops.bytes));  // NaN pattern: unwritten elements show up
    uint64_t args[4] = {reinterpret_cast<uint64_t>(ops.dx), reinterpret_cast<uint64_t>(ops.dy),
                        reinterpret_cast<uint64_t>(ops.dz), n};
    ACL_OK(aclrtLaunchKernel(vadd, blocks, args, sizeof(args), stream));
    std::memset(args, 0, sizeof(args));  // the launch copied the arguments
    ACL_OK(aclrtSynchronizeStream(stream));
    ACL_OK(aclrtMemcpy(z.data(), ops.bytes, ops.dz, ops.bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint64_t i = 0; i < n; ++i) {
      ASSERT_EQ(z[i], ops.x[i] + ops.y[i]) << "element " << i << " of " << n << ", " << blocks << " blocks";
    }
  }

  std::vector<uint8_t> bytes_;
  aclrtBinHandle bin_ = nullptr;
};

TEST_F(Launch, VaddManyBlockCountsRandomData) {
  aclrtFuncHandle vadd = Function("vadd_f32");
  aclrtStream stream = nullptr;
  ACL_OK(aclrtCreateStream(&stream));
  const std::pair<uint64_t, uint32_t> cases[] = {{1, 1},       {1000, 1},  {4096, 8},
                                                 {100003, 48}, {70000, 3}, {5, 40},  // more blocks than elements
                                                 {200000, 65}};
  for (const auto &[n, blocks] : cases) CheckVadd(vadd, n, blocks, stream);
  CheckVadd(vadd, 12345, 7, nullptr);  // default stream
  ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(Launch, ParamCountAndLookupErrors) {
  size_t count = 0;
  ACL_OK(aclrtFunctionGetParamCount(Function("vadd_f32"), &count));
  EXPECT_EQ(count, 4u);
  ACL_OK(aclrtFunctionGetParamCount(Function("empty_kernel"), &count));
  EXPECT_EQ(count, 0u);
  aclrtFuncHandle func = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(bin_, "add_custom", &func), ACL_ERROR_RT_KERNEL_LOOKUP);
  const std::string msg = TakeErrMsg();
  EXPECT_TRUE(Contains(msg, "kernel 'add_custom' is not in this binary")) << msg;
  EXPECT_TRUE(Contains(msg, "vadd_f32, empty_kernel, trap_on_block")) << msg;
  EXPECT_EQ(aclrtBinaryGetFunction(bin_, nullptr, &func), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryGetFunction(nullptr, "vadd_f32", &func), ACL_ERROR_INVALID_PARAM);
  int bogus = 0;
  EXPECT_EQ(aclrtBinaryGetFunction(&bogus, "vadd_f32", &func), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtFunctionGetParamCount(&bogus, &count), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtFunctionGetParamCount(Function("vadd_f32"), nullptr), ACL_ERROR_INVALID_PARAM);
  TakeErrMsg();
}

TEST_F(Launch, LaunchParameterErrors) {
  aclrtFuncHandle vadd = Function("vadd_f32");
  uint64_t args[4] = {};
  EXPECT_EQ(aclrtLaunchKernel(vadd, 0, args, sizeof(args), nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(Contains(TakeErrMsg(), "numBlocks=0"));
  EXPECT_EQ(aclrtLaunchKernel(vadd, 65536, args, sizeof(args), nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchKernel(vadd, 1, args, 24, nullptr), ACL_ERROR_INVALID_PARAM);
  const std::string msg = TakeErrMsg();
  EXPECT_TRUE(Contains(msg, "argsSize=24 but the kernel reads 32 bytes (4 parameters")) << msg;
  EXPECT_EQ(aclrtLaunchKernel(vadd, 1, nullptr, 32, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchKernel(nullptr, 1, args, 32, nullptr), ACL_ERROR_INVALID_PARAM);
  int bogus = 0;
  EXPECT_EQ(aclrtLaunchKernel(&bogus, 1, args, 32, nullptr), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtLaunchKernel(vadd, 1, args, 32, &bogus), ACL_ERROR_RT_INVALID_HANDLE);
  TakeErrMsg();
}

TEST_F(Launch, TrapNamesKernelAndBlockAndNextLaunchWorks) {
  aclrtFuncHandle trap = Function("trap_on_block");
  aclrtStream stream = nullptr;
  ACL_OK(aclrtCreateStream(&stream));
  for (uint32_t blocks : {1u, 4u, 48u}) {
    const uint64_t bad = Rng()() % blocks;
    uint64_t args[1] = {bad};
    ACL_OK(aclrtLaunchKernel(trap, blocks, args, sizeof(args), stream));
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::string msg = TakeErrMsg();
    EXPECT_EQ(msg, "kernel trap_on_block block " + std::to_string(bad) +
                       ": UB capacity exceeded: TBuf of 196640 bytes needs more than the 196608-byte UB");
    EXPECT_EQ(msg.find('\n'), std::string::npos);  // one line
    ACL_OK(aclrtSynchronizeStream(stream));        // the error was reported once
    // The runtime lives on: a good launch on the same stream works.
    CheckVadd(Function("vadd_f32"), 3000, blocks, stream);
  }
  // A trap followed by good work in the same queue: synchronize reports the trap, the later
  // launch still ran (CANN's default continue-on-failure mode).
  uint64_t args[1] = {0};
  ACL_OK(aclrtLaunchKernel(trap, 2, args, sizeof(args), stream));
  std::vector<uint64_t> env_out(6 * 2, 0);
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, env_out.size() * 8, ACL_MEM_MALLOC_HUGE_FIRST));
  uint64_t env_args[1] = {reinterpret_cast<uint64_t>(dev)};
  ACL_OK(aclrtLaunchKernel(Function("block_env"), 2, env_args, sizeof(env_args), stream));
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  TakeErrMsg();
  ACL_OK(aclrtMemcpy(env_out.data(), env_out.size() * 8, dev, env_out.size() * 8, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(env_out[6 + 1], 2u);
  ACL_OK(aclrtFree(dev));
  ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(Launch, GmCheckerTrapsOutOfAllocationAccess) {
  aclrtFuncHandle overrun = Function("gm_overrun");
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
  uint64_t inside[2] = {reinterpret_cast<uint64_t>(dev), 1024};  // 1000 -> 1024 (+32 pad) is fine
  ACL_OK(aclrtLaunchKernel(overrun, 3, inside, sizeof(inside), nullptr));
  ACL_OK(aclrtSynchronizeStream(nullptr));
  uint64_t outside[2] = {reinterpret_cast<uint64_t>(dev), 1057};
  ACL_OK(aclrtLaunchKernel(overrun, 1, outside, sizeof(outside), nullptr));
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_AICORE_EXCEPTION);
  const std::string msg = TakeErrMsg();
  EXPECT_TRUE(Contains(msg, "kernel gm_overrun block 0: GM access out of bounds")) << msg;
  int host = 0;
  uint64_t host_ptr[2] = {reinterpret_cast<uint64_t>(&host), 4};  // host memory is not GM
  ACL_OK(aclrtLaunchKernel(overrun, 1, host_ptr, sizeof(host_ptr), nullptr));
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_AICORE_EXCEPTION);
  TakeErrMsg();
  ACL_OK(aclrtFree(dev));
}

// aclrtHostRegister makes caller memory GM for exactly the registered bytes, until unregistered.
TEST_F(Launch, GmCheckerSeesRegisteredHostMemory) {
  aclrtFuncHandle overrun = Function("gm_overrun");
  const size_t size = 4096 + Rng()() % 8192;
  void *host = std::aligned_alloc(4096, 4 * 4096);
  ASSERT_NE(host, nullptr);
  void *dev = nullptr;
  ACL_OK(aclrtHostRegister(host, size, ACL_HOST_REGISTER_MAPPED, &dev));
  EXPECT_EQ(dev, host);
  uint64_t inside[2] = {reinterpret_cast<uint64_t>(dev), size};
  ACL_OK(aclrtLaunchKernel(overrun, 2, inside, sizeof(inside), nullptr));
  ACL_OK(aclrtSynchronizeStream(nullptr));
  uint64_t outside[2] = {reinterpret_cast<uint64_t>(dev), size + 1};
  ACL_OK(aclrtLaunchKernel(overrun, 1, outside, sizeof(outside), nullptr));
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_TRUE(Contains(TakeErrMsg(), "GM access out of bounds"));
  ACL_OK(aclrtHostUnregister(host));
  ACL_OK(aclrtLaunchKernel(overrun, 1, inside, sizeof(inside), nullptr));
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_AICORE_EXCEPTION);  // no longer GM
  TakeErrMsg();
  std::free(host);
}

TEST_F(Launch, BlockEnvironmentMatchesTheDevice) {
  const uint32_t blocks = 48;
  std::vector<uint64_t> out(6 * blocks, 0);
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, out.size() * 8, ACL_MEM_MALLOC_HUGE_FIRST));
  uint64_t args[1] = {reinterpret_cast<uint64_t>(dev)};
  ACL_OK(aclrtLaunchKernel(Function("block_env"), blocks, args, sizeof(args), nullptr));
  ACL_OK(aclrtSynchronizeStream(nullptr));
  ACL_OK(aclrtMemcpy(out.data(), out.size() * 8, dev, out.size() * 8, ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint32_t b = 0; b < blocks; ++b) {
    const uint64_t *row = &out[6 * b];
    EXPECT_EQ(row[0], b);
    EXPECT_EQ(row[1], blocks);
    EXPECT_EQ(row[2], 2201u);
    EXPECT_EQ(row[3], 196608u);  // Ascend910B1 [AICoreSpec] ub_size
    EXPECT_EQ(row[4], 1u) << "UB 4 KiB aligned, ABI version and kernel name";
    EXPECT_EQ(row[5], std::strlen("Ascend910B1"));
  }
  ACL_OK(aclrtFree(dev));
}

TEST_F(Launch, ConcurrentLaunchesFromTwoThreadsOnTwoStreams) {
  aclrtContext ctx = nullptr;
  ACL_OK(aclrtGetCurrentContext(&ctx));
  aclrtFuncHandle vadd = Function("vadd_f32");
  const uint64_t seed = Rng()();
  auto worker = [&](int id) {
    ASSERT_EQ(aclrtSetCurrentContext(ctx), ACL_SUCCESS);  // a context per thread, as in CANN
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    std::mt19937_64 rng(seed + static_cast<uint64_t>(id));
    for (int round = 0; round < 20; ++round) {
      const uint64_t n = 1 + rng() % 50000;
      const uint32_t blocks = 1 + static_cast<uint32_t>(rng() % 16);
      std::vector<float> x(n), y(n), z(n);
      for (uint64_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(rng() % 10000) * 0.25f;
        y[i] = static_cast<float>(rng() % 10000) * -0.5f;
      }
      const size_t bytes = n * 4;
      void *dx = nullptr, *dy = nullptr, *dz = nullptr;
      ASSERT_EQ(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      ASSERT_EQ(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      ASSERT_EQ(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemcpyAsync(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemcpyAsync(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream), ACL_SUCCESS);
      uint64_t args[4] = {reinterpret_cast<uint64_t>(dx), reinterpret_cast<uint64_t>(dy),
                          reinterpret_cast<uint64_t>(dz), n};
      ASSERT_EQ(aclrtLaunchKernel(vadd, blocks, args, sizeof(args), stream), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemcpyAsync(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream), ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << TakeErrMsg();
      for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << "thread " << id << " element " << i;
      ASSERT_EQ(aclrtFree(dx), ACL_SUCCESS);
      ASSERT_EQ(aclrtFree(dy), ACL_SUCCESS);
      ASSERT_EQ(aclrtFree(dz), ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
}

TEST_F(Launch, UnloadWhileLaunchesAreQueuedKeepsThemRunning) {
  aclrtBinHandle second = nullptr;
  ACL_OK(aclrtBinaryLoadFromData(bytes_.data(), bytes_.size(), nullptr, &second));
  aclrtFuncHandle env = nullptr;
  ACL_OK(aclrtBinaryGetFunction(second, "block_env", &env));
  const uint32_t blocks = 16;
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, 6 * 8 * blocks, ACL_MEM_MALLOC_HUGE_FIRST));
  uint64_t args[1] = {reinterpret_cast<uint64_t>(dev)};
  for (int i = 0; i < 20; ++i) ACL_OK(aclrtLaunchKernel(env, blocks, args, sizeof(args), nullptr));
  ACL_OK(aclrtBinaryUnLoad(second));
  EXPECT_EQ(aclrtLaunchKernel(env, blocks, args, sizeof(args), nullptr), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_TRUE(Contains(TakeErrMsg(), "not live"));
  ACL_OK(aclrtSynchronizeStream(nullptr));
  std::vector<uint64_t> out(6 * blocks);
  ACL_OK(aclrtMemcpy(out.data(), out.size() * 8, dev, out.size() * 8, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(out[6 * 15], 15u);
  EXPECT_EQ(aclrtBinaryUnLoad(second), ACL_ERROR_RT_INVALID_HANDLE);
  TakeErrMsg();
  ACL_OK(aclrtFree(dev));
}

TEST_F(Launch, LoadFromFileAndHostObjectAndOptions) {
  aclrtBinaryLoadOption option{};
  option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  option.value.magic = ACL_RT_BINARY_MAGIC_ELF_AICORE;
  aclrtBinaryLoadOptions options{&option, 1};
  aclrtBinHandle from_file = nullptr, from_host = nullptr;
  ACL_OK(aclrtBinaryLoadFromFile(KernelPath("k2201").c_str(), &options, &from_file));
  CheckVadd(
      [&] {
        aclrtFuncHandle f = nullptr;
        EXPECT_EQ(aclrtBinaryGetFunction(from_file, "vadd_f32", &f), ACL_SUCCESS);
        return f;
      }(),
      777, 5, nullptr);
  std::vector<uint8_t> host = ReadFile(KernelPath("khost"));
  option.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
  option.value.isLazyLoad = 1;
  ACL_OK(aclrtBinaryLoadFromData(host.data(), host.size(), &options, &from_host));
  aclrtFuncHandle f = nullptr;
  ACL_OK(aclrtBinaryGetFunction(from_host, "vadd_f32", &f));
  CheckVadd(f, 999, 3, nullptr);
  ACL_OK(aclrtBinaryUnLoad(from_file));
  ACL_OK(aclrtBinaryUnLoad(from_host));

  aclrtBinHandle bad = nullptr;
  option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  option.value.magic = 0x12345678;
  EXPECT_EQ(aclrtBinaryLoadFromData(host.data(), host.size(), &options, &bad), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(Contains(TakeErrMsg(), "0x12345678"));
  option.type = static_cast<aclrtBinaryLoadOptionType>(77);
  EXPECT_EQ(aclrtBinaryLoadFromData(host.data(), host.size(), &options, &bad), ACL_ERROR_INVALID_PARAM);
  aclrtBinaryLoadOptions broken{nullptr, 2};
  EXPECT_EQ(aclrtBinaryLoadFromData(host.data(), host.size(), &broken, &bad), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryLoadFromFile("/nonexistent/k.o", nullptr, &bad), ACL_ERROR_INVALID_FILE);
  EXPECT_TRUE(Contains(TakeErrMsg(), "/nonexistent/k.o"));
  EXPECT_EQ(aclrtBinaryLoadFromData(host.data(), 0, nullptr, &bad), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryLoadFromData(nullptr, 10, nullptr, &bad), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryLoadFromData(host.data(), 100, nullptr, &bad), ACL_ERROR_INVALID_PARAM);  // truncated
  EXPECT_TRUE(Contains(TakeErrMsg(), "truncated"));
}

TEST_F(Launch, WrongArchAndMalformedThroughTheApi) {
  aclrtBinHandle bad = nullptr;
  std::vector<uint8_t> other = ReadFile(KernelPath("k3510"));
  EXPECT_EQ(aclrtBinaryLoadFromData(other.data(), other.size(), nullptr, &bad), ACL_ERROR_RT_SOC_VERSION);
  std::string msg = TakeErrMsg();
  EXPECT_TRUE(Contains(msg, "aclrtBinaryLoadFromData: kernel binary was built for NpuArch 3510")) << msg;
  EXPECT_TRUE(Contains(msg, "Ascend910B1 has NpuArch 2201")) << msg;
  EXPECT_EQ(aclrtBinaryLoadFromFile(KernelPath("knometa").c_str(), nullptr, &bad), ACL_ERROR_INVALID_PARAM);
  msg = TakeErrMsg();
  EXPECT_TRUE(Contains(msg, "no .ascend.meta section")) << msg;
  EXPECT_TRUE(Contains(msg, KernelPath("knometa"))) << msg;
}

// A binary built for twin ABI 1 (no AscTwinBlockEnv.flags) or 2 (the flag-gated env, before
// struct_size and the local-memory table) is refused before it is loaded, with the same error
// code and hint.
TEST_F(Launch, BinaryOfAnOlderAbiIsRefusedWithAHint) {
  for (const char old_version : {'1', '2'}) {
    std::vector<uint8_t> old = bytes_;
    const std::string current = "abi=" + std::to_string(ASC_TWIN_ABI_VERSION) + "\n";
    auto at = std::search(old.begin(), old.end(), current.begin(), current.end());
    ASSERT_NE(at, old.end()) << "no " << current << " line in the test binary";
    at[4] = old_version;
    aclrtBinHandle bad = nullptr;
    EXPECT_EQ(aclrtBinaryLoadFromData(old.data(), old.size(), nullptr, &bad), ACL_ERROR_INVALID_PARAM);
    const std::string msg = TakeErrMsg();
    EXPECT_TRUE(Contains(msg, std::string("built for twin ABI ") + old_version +
                                  ", this runtime implements ABI 3: rebuild the kernel with the current bisheng"))
        << msg;
  }
}

TEST(LaunchNoContext, BinaryLoadNeedsAContext) {
  ACL_OK(aclInit(nullptr));
  std::vector<uint8_t> bytes = ReadFile(KernelPath("k2201"));
  aclrtBinHandle bin = nullptr;
  EXPECT_EQ(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &bin), ACL_ERROR_RT_CONTEXT_NULL);
  TakeErrMsg();
  ACL_OK(aclFinalize());
}

}  // namespace
}  // namespace asc_twin::rt::testing

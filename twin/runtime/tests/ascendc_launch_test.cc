// The runtime with a real Ascend C kernel compiled by bisheng (ascendc_kernel rule): the
// device binary and bisheng's host object both load, add_custom matches a scalar reference
// on random data for several block counts, and a UB overflow trap names kernel and block.
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

class AscendcLaunch : public AclTest {
 protected:
  aclrtFuncHandle Load(const std::string &key, const char *kernel) {
    std::vector<uint8_t> bytes = ReadFile(KernelPath(key));
    aclrtBinHandle bin = nullptr;
    EXPECT_EQ(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &bin), ACL_SUCCESS) << TakeErrMsg();
    bins_.push_back(bin);
    aclrtFuncHandle func = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(bin, kernel, &func), ACL_SUCCESS) << TakeErrMsg();
    return func;
  }
  void TearDown() override {
    for (aclrtBinHandle bin : bins_) EXPECT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS) << TakeErrMsg();
    AclTest::TearDown();
  }
  std::vector<aclrtBinHandle> bins_;
};

TEST_F(AscendcLaunch, AddCustomMatchesReference) {
  for (const char *key : {"add", "addhost"}) {
    aclrtFuncHandle add = Load(key, "add_custom");
    size_t params = 0;
    ACL_OK(aclrtFunctionGetParamCount(add, &params));
    EXPECT_EQ(params, 5u);
    aclrtStream stream = nullptr;
    ACL_OK(aclrtCreateStream(&stream));
    for (uint32_t blocks : {1u, 8u, 48u}) {
      const uint32_t tile_num = 4, tile_length = 64 * (1 + static_cast<uint32_t>(Rng()() % 4));
      const uint32_t total = blocks * tile_num * 2 * tile_length;
      DeviceAddOperands ops;
      ASSERT_NO_FATAL_FAILURE(ops.Upload(total, -100.0f, 100.0f));
      std::vector<float> z(total, 0.0f);
      uint64_t args[5] = {reinterpret_cast<uint64_t>(ops.dx), reinterpret_cast<uint64_t>(ops.dy),
                          reinterpret_cast<uint64_t>(ops.dz), total, tile_num};
      ACL_OK(aclrtLaunchKernel(add, blocks, args, sizeof(args), stream));
      ACL_OK(aclrtSynchronizeStream(stream));
      ACL_OK(aclrtMemcpy(z.data(), ops.bytes, ops.dz, ops.bytes, ACL_MEMCPY_DEVICE_TO_HOST));
      for (uint32_t i = 0; i < total; ++i) {
        ASSERT_EQ(z[i], ops.x[i] + ops.y[i])
            << key << ": element " << i << " of " << total << ", " << blocks << " blocks";
      }
    }
    ACL_OK(aclrtDestroyStream(stream));
  }
}

// add_custom reading and writing caller memory registered with aclrtHostRegister (no copies).
TEST_F(AscendcLaunch, AddCustomOnRegisteredHostMemory) {
  aclrtFuncHandle add = Load("add", "add_custom");
  const uint32_t blocks = 8, tile_num = 4, tile_length = 64 * (1 + static_cast<uint32_t>(Rng()() % 4));
  const uint32_t total = blocks * tile_num * 2 * tile_length;
  const size_t bytes = total * sizeof(float);
  std::uniform_real_distribution<float> value(-100.0f, 100.0f);
  float *host[3];
  for (float *&h : host) {
    h = static_cast<float *>(std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096));
    ASSERT_NE(h, nullptr);
  }
  for (uint32_t i = 0; i < total; ++i) host[0][i] = value(Rng()), host[1][i] = value(Rng()), host[2][i] = 0.0f;
  void *dev[3] = {};
  for (int i = 0; i < 3; ++i) ACL_OK(aclrtHostRegister(host[i], bytes, ACL_HOST_REGISTER_MAPPED, &dev[i]));
  uint64_t args[5] = {reinterpret_cast<uint64_t>(dev[0]), reinterpret_cast<uint64_t>(dev[1]),
                      reinterpret_cast<uint64_t>(dev[2]), total, tile_num};
  ACL_OK(aclrtLaunchKernel(add, blocks, args, sizeof(args), nullptr));
  ACL_OK(aclrtSynchronizeStream(nullptr));
  for (uint32_t i = 0; i < total; ++i) {
    ASSERT_EQ(host[2][i], host[0][i] + host[1][i]) << "element " << i << " of " << total;
  }
  for (int i = 0; i < 3; ++i) {
    ACL_OK(aclrtHostUnregister(host[i]));
    std::free(host[i]);
  }
}

// A launch large enough that add_custom streams its output (non-temporal stores): the runtime
// sets ASC_TWIN_ENV_HOST_FENCES_STORES, so the blocks do not fence; the runtime's fence per run
// of blocks must make every element visible to the synchronizing thread.
TEST_F(AscendcLaunch, StreamedOutputIsCompleteAfterSynchronize) {
  aclrtFuncHandle add = Load("add", "add_custom");
  aclrtStream stream = nullptr;
  ACL_OK(aclrtCreateStream(&stream));
  const uint32_t tile_num = 4, tile_length = 512;  // 16 KiB of output a block
  for (int round = 0; round < 2; ++round) {
    const uint32_t blocks = 1024 + static_cast<uint32_t>(Rng()() % 512);  // 16-24 MiB: streamed
    const uint32_t total = blocks * tile_num * 2 * tile_length;
    DeviceAddOperands ops;
    ASSERT_NO_FATAL_FAILURE(ops.Upload(total, -1000.0f, 1000.0f));
    ACL_OK(aclrtMemset(ops.dz, ops.bytes, 0xff, ops.bytes));  // NaN pattern: unwritten elements show up
    uint64_t args[5] = {reinterpret_cast<uint64_t>(ops.dx), reinterpret_cast<uint64_t>(ops.dy),
                        reinterpret_cast<uint64_t>(ops.dz), total, tile_num};
    ACL_OK(aclrtLaunchKernel(add, blocks, args, sizeof(args), stream));
    ACL_OK(aclrtSynchronizeStream(stream));
    // Read on this thread straight from device memory (aclrtMalloc memory is host memory).
    const float *out = static_cast<const float *>(ops.dz);
    for (uint32_t i = 0; i < total; ++i) {
      ASSERT_EQ(out[i], ops.x[i] + ops.y[i]) << "element " << i << " of " << total << ", " << blocks << " blocks";
    }
  }
  ACL_OK(aclrtDestroyStream(stream));
}

// Kernel images define no static TLS: the block slot their API calls read lives in the process
// that runs blocks (ASC_TWIN_ENV_BLOCK_SLOT). An image with initial-exec TLS of its own takes
// static TLS at every dlopen, from a reserve of a few KiB that glibc cannot compact, so loads
// fail once a few images hold it; this one is loaded, run (block slot in use) and unloaded 2000
// times with 16 images loaded at any time, as a model with many kernels keeps them.
TEST_F(AscendcLaunch, LoadLaunchUnload2000Times) {
  const std::vector<uint8_t> bytes = ReadFile(KernelPath("add"));
  aclrtStream stream = nullptr;
  ACL_OK(aclrtCreateStream(&stream));
  const uint32_t blocks = 2, tile_num = 1, tile_length = 64;
  const uint32_t total = blocks * tile_num * 2 * tile_length;
  DeviceAddOperands ops;
  ASSERT_NO_FATAL_FAILURE(ops.Upload(total, -100.0f, 100.0f));
  const float *out = static_cast<const float *>(ops.dz);  // aclrtMalloc memory is host memory
  constexpr int kLive = 16;
  aclrtBinHandle live[kLive] = {};
  for (int cycle = 0; cycle < 2000; ++cycle) {
    aclrtBinHandle &bin = live[cycle % kLive];
    if (bin != nullptr) {
      ACL_OK(aclrtBinaryUnLoad(bin)) << "cycle " << cycle;
    }
    ACL_OK(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &bin)) << "cycle " << cycle;
    aclrtFuncHandle add = nullptr;
    ACL_OK(aclrtBinaryGetFunction(bin, "add_custom", &add));
    ACL_OK(aclrtMemset(ops.dz, ops.bytes, 0xff, ops.bytes));  // NaN pattern: unwritten elements show up
    uint64_t args[5] = {reinterpret_cast<uint64_t>(ops.dx), reinterpret_cast<uint64_t>(ops.dy),
                        reinterpret_cast<uint64_t>(ops.dz), total, tile_num};
    ACL_OK(aclrtLaunchKernel(add, blocks, args, sizeof(args), stream));
    ACL_OK(aclrtSynchronizeStream(stream)) << "cycle " << cycle;
    for (uint32_t i = 0; i < total; ++i) {
      ASSERT_EQ(out[i], ops.x[i] + ops.y[i]) << "cycle " << cycle << ", element " << i;
    }
  }
  for (aclrtBinHandle bin : live) ACL_OK(aclrtBinaryUnLoad(bin));
  ACL_OK(aclrtDestroyStream(stream));
}

// The runtime offers kernels gm_range (ASC_TWIN_ENV_GM_RANGE): a block thread remembers the
// allocations its DataCopy calls were found in, also for later blocks and launches. A free must
// still be seen by the next access: add_custom writing to z after aclrtFree(z) traps, although
// the thread found z in the launch before; one too short an output traps as well.
TEST_F(AscendcLaunch, GmChecksSeeFreesAndShortAllocations) {
  aclrtFuncHandle add = Load("add", "add_custom");
  const uint32_t blocks = 1, tile_num = 2, tile_length = 64 * (1 + static_cast<uint32_t>(Rng()() % 4));
  const uint32_t total = blocks * tile_num * 2 * tile_length;
  DeviceAddOperands ops;
  ASSERT_NO_FATAL_FAILURE(ops.Upload(total, -100.0f, 100.0f));
  uint64_t args[5] = {reinterpret_cast<uint64_t>(ops.dx), reinterpret_cast<uint64_t>(ops.dy),
                      reinterpret_cast<uint64_t>(ops.dz), total, tile_num};
  for (int run = 0; run < 3; ++run) {  // z is now among the ranges the block thread remembers
    ACL_OK(aclrtLaunchKernel(add, blocks, args, sizeof(args), nullptr));
    ACL_OK(aclrtSynchronizeStream(nullptr));
  }
  const float *out = static_cast<const float *>(ops.dz);
  for (uint32_t i = 0; i < total; ++i) ASSERT_EQ(out[i], ops.x[i] + ops.y[i]) << "element " << i;
  ACL_OK(aclrtFree(ops.dz));
  ops.dz = nullptr;
  ACL_OK(aclrtLaunchKernel(add, blocks, args, sizeof(args), nullptr));
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_AICORE_EXCEPTION);
  std::string msg = TakeErrMsg();
  EXPECT_EQ(msg.rfind("kernel add_custom block 0: DataCopy(UB->GM): GM access [", 0), 0u) << msg;
  EXPECT_NE(msg.find("is outside every device allocation"), std::string::npos) << msg;
  // A live output one tile too short (maybe at the freed address): the last tile's DataCopy traps.
  ACL_OK(aclrtMalloc(&ops.dz, ops.bytes - tile_length * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  args[2] = reinterpret_cast<uint64_t>(ops.dz);
  ACL_OK(aclrtLaunchKernel(add, blocks, args, sizeof(args), nullptr));
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_AICORE_EXCEPTION);
  msg = TakeErrMsg();
  EXPECT_NE(msg.find("DataCopy(UB->GM): GM access ["), std::string::npos) << msg;
}

TEST_F(AscendcLaunch, UbOverflowTrapNamesKernelAndBlock) {
  aclrtFuncHandle hog = Load("add", "ub_hog");
  uint64_t too_big[2] = {0, 196608 + 4096};  // Ascend910B1 UB is 196608 bytes
  ACL_OK(aclrtLaunchKernel(hog, 4, too_big, sizeof(too_big), nullptr));
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_AICORE_EXCEPTION);
  const std::string msg = TakeErrMsg();
  EXPECT_EQ(msg.rfind("kernel ub_hog block 0: ", 0), 0u) << msg;
  EXPECT_NE(msg.find("UB"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  uint64_t fits[2] = {0, 4096};
  ACL_OK(aclrtLaunchKernel(hog, 4, fits, sizeof(fits), nullptr));
  ACL_OK(aclrtSynchronizeStream(nullptr));
}

}  // namespace
}  // namespace asc_twin::rt::testing

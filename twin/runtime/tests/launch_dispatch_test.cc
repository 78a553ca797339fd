// Block dispatch of the launch path: guided chunked claiming, a synchronizing thread that helps
// a worker-drained launch, and traps, over many block counts. Every block must run exactly
// once with its own index, also when launches are queued while a worker is still busy.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "twin/runtime/internal/device.h"
#include "twin/runtime/internal/env_knob.h"
#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

class Dispatch : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    bytes_ = ReadFile(KernelPath("k2201"));
    ACL_OK(aclrtBinaryLoadFromData(bytes_.data(), bytes_.size(), nullptr, &bin_));
    ACL_OK(aclrtBinaryGetFunction(bin_, "block_env", &block_env_));
    ACL_OK(aclrtBinaryGetFunction(bin_, "trap_on_block", &trap_));
    ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(aclrtBinaryUnLoad(bin_), ACL_SUCCESS) << TakeErrMsg();
    AclTest::TearDown();
  }

  std::vector<uint8_t> bytes_;
  aclrtBinHandle bin_ = nullptr;
  aclrtFuncHandle block_env_ = nullptr, trap_ = nullptr;
  aclrtStream stream_ = nullptr;
};

// block_env writes 6 words per block: index, count, ...; a block run twice or never shows.
// `out` was filled with 0xee bytes before a launch of `blocks` blocks.
void ExpectEveryBlockOnce(const std::vector<uint64_t> &out, uint32_t blocks) {
  for (uint32_t b = 0; b < out.size() / 6; ++b) {
    if (b < blocks) {
      ASSERT_EQ(out[6 * b], b) << blocks << " blocks";
      ASSERT_EQ(out[6 * b + 1], blocks) << "block " << b;
      ASSERT_EQ(out[6 * b + 4], 1u) << "block " << b;
    } else {
      ASSERT_EQ(out[6 * b], 0xeeeeeeeeeeeeeeeeull) << "block " << b << " of " << blocks << " ran";
    }
  }
}

TEST_F(Dispatch, EveryBlockRunsOnceForManyBlockCounts) {
  constexpr uint32_t kMaxBlocks = 3000;
  const size_t bytes = size_t{kMaxBlocks} * 6 * 8;
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint64_t> out(size_t{kMaxBlocks} * 6);
  std::vector<uint32_t> counts = {1, 2, 3, 5, 47, 48, 49, 255, 1024, kMaxBlocks};
  for (int i = 0; i < 10; ++i) counts.push_back(1 + static_cast<uint32_t>(Rng()() % kMaxBlocks));
  for (uint32_t blocks : counts) {
    for (const bool let_a_worker_start : {false, true}) {
      ACL_OK(aclrtMemset(dev, bytes, 0xee, bytes));
      uint64_t args[1] = {reinterpret_cast<uint64_t>(dev)};
      ACL_OK(aclrtLaunchKernel(block_env_, blocks, args, sizeof(args), stream_));
      // Give a pool worker time to start draining, so this thread joins a running launch.
      if (let_a_worker_start) std::this_thread::sleep_for(std::chrono::microseconds(200));
      ACL_OK(aclrtSynchronizeStream(stream_));
      ACL_OK(aclrtMemcpy(out.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
      ASSERT_NO_FATAL_FAILURE(ExpectEveryBlockOnce(out, blocks));
    }
  }
  ACL_OK(aclrtFree(dev));
}

// The small-launch path (launch.cc): once a kernel's pace is known, a launch whose blocks add up
// to less than ASCEND_TWIN_INLINE_LAUNCH_NS runs on the device's dispatcher alone. With the
// threshold raised to a second (read when the device process starts), every launch after the
// first takes it, and every block must still run exactly once with its own index.
class SmallLaunchPath : public Dispatch {
 protected:
  void SetUp() override {
    ASSERT_EQ(setenv("ASCEND_TWIN_INLINE_LAUNCH_NS", "1000000000", 1), 0);
    Dispatch::SetUp();  // loads the binary: the device process starts with the raised threshold
  }
  void TearDown() override {
    Dispatch::TearDown();  // the device process ends with the device
    ASSERT_EQ(unsetenv("ASCEND_TWIN_INLINE_LAUNCH_NS"), 0);
  }
};

TEST_F(SmallLaunchPath, RunsEveryBlockOnceOnTheDispatcher) {
  DeviceProcess *device = Runtime::Get()->CurrentContext().value()->device().process().get();
  constexpr uint32_t kMaxBlocks = 200;
  const size_t bytes = size_t{kMaxBlocks} * 6 * 8;
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint64_t> out(size_t{kMaxBlocks} * 6);
  uint64_t args[1] = {reinterpret_cast<uint64_t>(dev)};
  ACL_OK(aclrtLaunchKernel(block_env_, 3, args, sizeof(args), stream_));  // learns the kernel's pace
  ACL_OK(aclrtSynchronizeStream(stream_));
  const uint64_t before = device->stats().inline_launches;
  const std::vector<uint32_t> counts = {1, 2, 7, 48, 49, 1 + static_cast<uint32_t>(Rng()() % kMaxBlocks), kMaxBlocks};
  for (uint32_t blocks : counts) {
    ACL_OK(aclrtMemset(dev, bytes, 0xee, bytes));
    ACL_OK(aclrtLaunchKernel(block_env_, blocks, args, sizeof(args), stream_));
    ACL_OK(aclrtSynchronizeStream(stream_));
    ACL_OK(aclrtMemcpy(out.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_NO_FATAL_FAILURE(ExpectEveryBlockOnce(out, blocks));
  }
  EXPECT_EQ(device->stats().inline_launches - before, counts.size());
  ACL_OK(aclrtFree(dev));
}

// The tuning knobs' parsing (internal/env_knob.h): a plain decimal, capped; anything else is the
// documented default.
TEST(EnvKnob, TakesPlainDecimalsCapsThemAndFallsBackOnAnythingElse) {
  constexpr const char *kName = "ASCEND_TWIN_TEST_KNOB";
  ASSERT_EQ(unsetenv(kName), 0);
  EXPECT_EQ(EnvUnsigned(kName, 8000, 1000000), 8000u);
  const struct {
    const char *text;
    uint64_t want;
  } cases[] = {{"7", 7},     {"0", 0},      {"2500000", 1000000}, {"", 8000},   {"-5", 8000},
               {"+5", 8000}, {"12x", 8000}, {"abc", 8000},        {" 5", 8000}, {"99999999999999999999999", 1000000}};
  for (const auto &c : cases) {
    ASSERT_EQ(setenv(kName, c.text, 1), 0);
    EXPECT_EQ(EnvUnsigned(kName, 8000, 1000000), c.want) << "'" << c.text << "'";
  }
  ASSERT_EQ(unsetenv(kName), 0);
}

// Several launches queued back to back (a worker drains; this thread helps each in turn), the
// middle one trapping: the trap is reported once, naming its block; the others all ran.
// Waits (without any ACL call) until block_env's one block wrote its record at `out`.
::testing::AssertionResult OneBlockRecordAppears(const void *out) {
  const auto *words = static_cast<const uint64_t *>(out);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (__atomic_load_n(&words[4], __ATOMIC_ACQUIRE) != 1u || __atomic_load_n(&words[1], __ATOMIC_ACQUIRE) != 1u) {
    if (std::chrono::steady_clock::now() > deadline) {
      return ::testing::AssertionFailure() << "the launch never ran without a synchronize";
    }
    std::this_thread::yield();
  }
  return __atomic_load_n(&words[0], __ATOMIC_ACQUIRE) == 0u
             ? ::testing::AssertionSuccess()
             : ::testing::AssertionFailure() << "block index " << words[0];
}

// Lazy wake (stream.h): once a stream's one-block launches are synchronized promptly, the next
// one may wait for its synchronizer instead of waking a worker. Without a synchronize it must
// still run: posted by the launching thread's next ACL call, by the next launch on the stream,
// or when the launching thread ends. A lost launch never shows up.
TEST_F(Dispatch, DeferredOneBlockLaunchesRunWithoutASynchronize) {
  constexpr size_t kRecord = 6 * 8;
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, 3 * kRecord, ACL_MEM_MALLOC_NORMAL_ONLY));
  auto *records = static_cast<uint8_t *>(dev);
  auto learn = [&] {  // launch + synchronize: the stream learns to defer
    for (int i = 0; i < 5; ++i) {
      uint64_t args[1] = {reinterpret_cast<uint64_t>(records + 2 * kRecord)};
      ACL_OK(aclrtLaunchKernel(block_env_, 1, args, sizeof(args), stream_));
      ACL_OK(aclrtSynchronizeStream(stream_));
    }
  };
  auto launch_one = [&](int slot) {
    ACL_OK(aclrtMemset(records + slot * kRecord, kRecord, 0xee, kRecord));
    uint64_t args[1] = {reinterpret_cast<uint64_t>(records + slot * kRecord)};
    ACL_OK(aclrtLaunchKernel(block_env_, 1, args, sizeof(args), stream_));
  };
  for (int round = 0; round < 3; ++round) {
    // 1. another ACL call of the launching thread
    learn();
    launch_one(0);
    int32_t device = -1;
    ACL_OK(aclrtGetDevice(&device));
    EXPECT_TRUE(OneBlockRecordAppears(records)) << "after aclrtGetDevice, round " << round;
    // 2. a second launch on the stream
    learn();
    launch_one(0);
    launch_one(1);
    EXPECT_TRUE(OneBlockRecordAppears(records)) << "first of two launches, round " << round;
    EXPECT_TRUE(OneBlockRecordAppears(records + kRecord)) << "second of two launches, round " << round;
    ACL_OK(aclrtSynchronizeStream(stream_));
    // 3. the launching thread ends
    learn();
    ACL_OK(aclrtMemset(records, kRecord, 0xee, kRecord));
    aclrtContext context = nullptr;
    ACL_OK(aclrtGetCurrentContext(&context));
    std::thread launcher([&] {
      ACL_OK(aclrtSetCurrentContext(context));
      uint64_t args[1] = {reinterpret_cast<uint64_t>(records)};
      ACL_OK(aclrtLaunchKernel(block_env_, 1, args, sizeof(args), stream_));
    });
    launcher.join();
    EXPECT_TRUE(OneBlockRecordAppears(records)) << "after the launching thread ended, round " << round;
  }
  ACL_OK(aclrtSynchronizeStream(stream_));
  ACL_OK(aclrtFree(dev));
}

TEST_F(Dispatch, QueuedLaunchesWithATrapInTheMiddle) {
  constexpr uint32_t kBlocks = 700;
  const size_t bytes = size_t{kBlocks} * 6 * 8;
  void *before = nullptr, *after = nullptr;
  ACL_OK(aclrtMalloc(&before, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtMalloc(&after, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  for (int round = 0; round < 5; ++round) {
    ACL_OK(aclrtMemset(before, bytes, 0, bytes));
    ACL_OK(aclrtMemset(after, bytes, 0, bytes));
    const uint64_t bad = Rng()() % kBlocks;
    uint64_t before_args[1] = {reinterpret_cast<uint64_t>(before)};
    uint64_t trap_args[1] = {bad};
    uint64_t after_args[1] = {reinterpret_cast<uint64_t>(after)};
    ACL_OK(aclrtLaunchKernel(block_env_, kBlocks, before_args, sizeof(before_args), stream_));
    ACL_OK(aclrtLaunchKernel(trap_, kBlocks, trap_args, sizeof(trap_args), stream_));
    ACL_OK(aclrtLaunchKernel(block_env_, kBlocks, after_args, sizeof(after_args), stream_));
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::string msg = TakeErrMsg();
    EXPECT_EQ(msg.rfind("kernel trap_on_block block " + std::to_string(bad) + ": UB capacity exceeded", 0), 0u) << msg;
    ACL_OK(aclrtSynchronizeStream(stream_));
    std::vector<uint64_t> out(size_t{kBlocks} * 6);
    for (void *dev : {before, after}) {
      ACL_OK(aclrtMemcpy(out.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
      for (uint32_t b = 0; b < kBlocks; ++b) ASSERT_EQ(out[6 * b], b) << "round " << round;
      for (uint32_t b = 0; b < kBlocks; ++b) ASSERT_EQ(out[6 * b + 1], kBlocks) << "round " << round;
    }
  }
  ACL_OK(aclrtFree(before));
  ACL_OK(aclrtFree(after));
}

}  // namespace
}  // namespace asc_twin::rt::testing

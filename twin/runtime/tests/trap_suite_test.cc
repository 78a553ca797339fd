// The trap suite: every class of kernel fault — a wild store into host memory, into a GM guard
// page, into freed GM, or to an unmapped address; integer division by zero; abort(); exit();
// _exit(); stack overflow; SIGKILL (refused by the sandbox); an endless loop — fails its launch with CANN's AI Core
// error code (ACL_ERROR_RT_AICORE_EXCEPTION, or ACL_ERROR_RT_AICORE_TIMEOUT for the loop)
// naming kernel, block and cause, in ONE host process that lives on: host memory and device
// memory keep their contents, the binaries stay loaded, and the next launch computes right.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstring>
#include <iostream>
#include <vector>

#include "twin/runtime/internal/device.h"
#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

bool Contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

class TrapSuite : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    faults_bytes_ = ReadFile(KernelPath("kfault"));
    good_bytes_ = ReadFile(KernelPath("k2201"));
    ACL_OK(aclrtBinaryLoadFromData(faults_bytes_.data(), faults_bytes_.size(), nullptr, &faults_));
    ACL_OK(aclrtBinaryLoadFromData(good_bytes_.data(), good_bytes_.size(), nullptr, &good_));
    ACL_OK(aclrtBinaryGetFunction(good_, "vadd_f32", &vadd_));
    ACL_OK(aclrtCreateStream(&stream_));
    ACL_OK(aclrtSetOpExecuteTimeOut(1));  // the endless loop is killed after 1 s
  }
  void TearDown() override {
    EXPECT_EQ(aclrtSetOpExecuteTimeOut(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(aclrtBinaryUnLoad(faults_), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(aclrtBinaryUnLoad(good_), ACL_SUCCESS) << TakeErrMsg();
    AclTest::TearDown();
  }

  // Launches fault kernel `name` with `blocks` blocks, block `bad` faulting with `arg`; returns
  // the synchronize's code and leaves the message in *message.
  aclError RunFault(const char *name, uint32_t blocks, uint32_t bad, uint64_t arg, std::string *message) {
    aclrtFuncHandle func = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(faults_, name, &func), ACL_SUCCESS) << TakeErrMsg();
    uint64_t args[2] = {bad, arg};
    EXPECT_EQ(aclrtLaunchKernel(func, blocks, args, sizeof(args), stream_), ACL_SUCCESS) << TakeErrMsg();
    const aclError code = aclrtSynchronizeStream(stream_);
    *message = TakeErrMsg();
    return code;
  }

  // The next launch works: vadd on random data, exact.
  void CheckVaddWorks(uint32_t blocks) { ::asc_twin::rt::testing::CheckVaddWorks(vadd_, stream_, blocks); }

  std::vector<uint8_t> faults_bytes_, good_bytes_;
  aclrtBinHandle faults_ = nullptr, good_ = nullptr;
  aclrtFuncHandle vadd_ = nullptr;
  aclrtStream stream_ = nullptr;
};

TEST_F(TrapSuite, EveryFaultClassIsAnErrorCodeAndTheNextLaunchWorks) {
  // Device memory with a pattern that must survive every device reset.
  const size_t kept_bytes = 1 << 20;
  std::vector<uint8_t> pattern(kept_bytes);
  for (auto &b : pattern) b = static_cast<uint8_t>(Rng()());
  void *kept = nullptr;
  ACL_OK(aclrtMalloc(&kept, kept_bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtMemcpy(kept, kept_bytes, pattern.data(), kept_bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  // Host memory a wild store aims at.
  std::vector<uint64_t> host(512, 0x1234567812345678ull);
  // GM guard page: the page after an allocation's accessible bytes.
  void *guarded = nullptr;
  ACL_OK(aclrtMalloc(&guarded, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  const uint64_t guard_page = reinterpret_cast<uint64_t>(guarded) + 8192;
  void *freed = nullptr;
  ACL_OK(aclrtMalloc(&freed, 65536, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtFree(freed));

  struct Case {
    const char *kernel;
    uint32_t blocks;
    uint64_t arg;
    aclError code;
    const char *cause;
    bool exact_block;  // false: the process vanished without a report (block from the marks)
  };
  const Case cases[] = {
      {"fault_wild_store", 4, reinterpret_cast<uint64_t>(host.data() + 7), ACL_ERROR_RT_AICORE_EXCEPTION,
       "SIGSEGV: invalid memory access at", true},
      {"fault_wild_store", 4, 0x10, ACL_ERROR_RT_AICORE_EXCEPTION, "SIGSEGV: invalid memory access at 0x10", true},
      {"fault_wild_store", 3, guard_page, ACL_ERROR_RT_AICORE_EXCEPTION, "is not inside a live device allocation",
       true},
      {"fault_wild_store", 2, reinterpret_cast<uint64_t>(freed), ACL_ERROR_RT_AICORE_EXCEPTION,
       "is not inside a live device allocation", true},
      {"fault_divide", 4, 0, ACL_ERROR_RT_AICORE_EXCEPTION, "SIGFPE: integer divide by zero", true},
      {"fault_abort", 4, 0, ACL_ERROR_RT_AICORE_EXCEPTION, "SIGABRT: the kernel called abort()", true},
      {"fault_exit", 4, 7, ACL_ERROR_RT_AICORE_EXCEPTION, "the kernel called exit() with status 7", true},
      {"fault_stack_overflow", 2, 0, ACL_ERROR_RT_AICORE_EXCEPTION, "stack overflow", true},
      {"fault_quick_exit", 1, 9, ACL_ERROR_RT_AICORE_EXCEPTION, "exited with status 9", false},
      // A signal, even to itself, is a forbidden system call under the device's sandbox.
      {"fault_sigkill", 1, 0, ACL_ERROR_RT_AICORE_EXCEPTION, "made forbidden system call kill (62)", true},
      {"fault_hang", 2, 0, ACL_ERROR_RT_AICORE_TIMEOUT, "still running after the operator execution timeout", true},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string(c.kernel) + " " + c.cause);
    const uint32_t bad = static_cast<uint32_t>(Rng()() % c.blocks);
    std::string message;
    EXPECT_EQ(RunFault(c.kernel, c.blocks, bad, c.arg, &message), c.code) << message;
    std::cout << "[trap] " << message << std::endl;
    const std::string where =
        std::string("kernel ") + c.kernel + " block " + (c.exact_block ? std::to_string(bad) : "");
    EXPECT_TRUE(Contains(message, where)) << message;
    EXPECT_TRUE(Contains(message, c.cause)) << message;
    EXPECT_TRUE(Contains(message, "the device was reset")) << message;
    // The fault is also the thread's last error until it is taken.
    EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), c.code);
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), c.code);
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    // Reported once: the stream is clean again.
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << TakeErrMsg();
    ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(1 + static_cast<uint32_t>(Rng()() % 8)));
    for (uint64_t word : host) ASSERT_EQ(word, 0x1234567812345678ull);
    std::vector<uint8_t> back(kept_bytes);
    ACL_OK(aclrtMemcpy(back.data(), kept_bytes, kept, kept_bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(std::memcmp(back.data(), pattern.data(), kept_bytes), 0) << "device memory lost its contents";
  }
  ACL_OK(aclrtFree(kept));
  ACL_OK(aclrtFree(guarded));
}

TEST_F(TrapSuite, SynchronizeWithTimeoutReturnsWhileTheKernelHangs) {
  ACL_OK(aclrtSetOpExecuteTimeOut(2));
  uint32_t ms = 0;
  ACL_OK(aclrtGetOpExecuteTimeout(&ms));
  EXPECT_EQ(ms, 2000u);
  aclrtFuncHandle hang = nullptr;
  ACL_OK(aclrtBinaryGetFunction(faults_, "fault_hang", &hang));
  uint64_t args[2] = {0, 0};
  ACL_OK(aclrtLaunchKernel(hang, 1, args, sizeof(args), stream_));
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_TRUE(Contains(TakeErrMsg(), "did not finish within 50 ms"));
  // The watchdog ends the kernel; a waiting synchronize then gets the timeout code.
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, -1), ACL_ERROR_RT_AICORE_TIMEOUT);
  EXPECT_TRUE(Contains(TakeErrMsg(), "kernel fault_hang block 0: still running after"));
  ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(3));
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, -2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 1000), ACL_SUCCESS) << TakeErrMsg();
  ACL_OK(aclrtSetOpWaitTimeout(5));
  ACL_OK(aclrtSetOpExecuteTimeOut(5000));  // clamped to CANN's maximum
  ACL_OK(aclrtGetOpExecuteTimeout(&ms));
  EXPECT_EQ(ms, 1091u * 1000u);
  EXPECT_EQ(aclrtGetOpExecuteTimeout(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(TrapSuite, FaultOnOneStreamLeavesOtherStreamsWorking) {
  aclrtStream other = nullptr;
  ACL_OK(aclrtCreateStream(&other));
  std::string message;
  EXPECT_EQ(RunFault("fault_abort", 1, 0, 0, &message), ACL_ERROR_RT_AICORE_EXCEPTION);
  std::swap(other, stream_);
  ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(5));
  std::swap(other, stream_);
  ACL_OK(aclrtDestroyStream(other));
}

// A device process restarted after a fault reports ready, serves the reload of every binary and
// only then starts its dispatchers (held back here on purpose): the launch the host submitted
// meanwhile must still run (it once was lost, and the watchdog killed the device with no block
// to name).
TEST_F(TrapSuite, LaunchSubmittedBeforeTheDispatcherStartsIsNotLost) {
  ASSERT_EQ(setenv("ASCEND_TWIN_DEVICE_START_DELAY_US", "300000", 1), 0);
  std::string message;
  EXPECT_EQ(RunFault("fault_abort", 1, 0, 0, &message), ACL_ERROR_RT_AICORE_EXCEPTION);
  ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(5));  // restarts the device; the dispatcher starts late
  ASSERT_EQ(unsetenv("ASCEND_TWIN_DEVICE_START_DELAY_US"), 0);
}

// A device process that dies while idle (killed from outside, as by the OOM killer) is noticed
// by the next launch, which runs on a restarted device. The host learns it from the robust
// liveness mutex (protocol.h), not from a waitpid per launch: had the mutex not reported the
// death, this launch would have gone to the dead process and failed.
TEST_F(TrapSuite, DeviceKilledWhileIdleRestartsAtTheNextLaunch) {
  ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(3));
  DeviceProcess *device = Runtime::Get()->CurrentContext().value()->device().process().get();
  const pid_t pid = device->stats().pid;
  ASSERT_GT(pid, 0);
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  // Wait until it is a zombie (the kernel has run its robust list), without reaping it.
  siginfo_t info{};
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT), 0);
  ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(7));
  EXPECT_NE(device->stats().pid, pid);
}

}  // namespace
}  // namespace asc_twin::rt::testing

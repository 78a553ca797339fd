// ACL API order and error codes: uninitialized use, bad parameters, repeated init/finalize,
// devices and contexts, memory and memcpy bounds, streams, error messages, SoC selection.
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

bool Contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

// No aclInit: the first call initializes ACL (CANN's rule), each call then answers as after
// aclInit(nullptr). implicit_init_test.cc runs a whole program this way.
TEST(AclLifecycle, CallsBeforeAclInitInitializeOnFirstUse) {
  int32_t device = -1;
  uint32_t count = 0;
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);  // nothing used yet: nothing to finalize
  TakeErrMsg();
  EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);  // initialized, no device set
  EXPECT_FALSE(Contains(TakeErrMsg(), "aclInit"));
  ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, 1u);
  EXPECT_NE(aclrtGetSocName(), nullptr);
  ACL_OK(aclFinalize());
}

TEST(AclLifecycle, RepeatInitAndFinalize) {
  ACL_OK(aclInit(nullptr));
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_TRUE(Contains(TakeErrMsg(), "already initialized"));
  ACL_OK(aclFinalize());
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_TRUE(Contains(TakeErrMsg(), "aclFinalize"));
  // Init again after finalize works (the twin allows a new session).
  ACL_OK(aclInit(""));
  ACL_OK(aclFinalize());
}

TEST(AclLifecycle, MissingConfigFileIsInvalidFile) {
  EXPECT_EQ(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
  EXPECT_TRUE(Contains(TakeErrMsg(), "/nonexistent/acl.json"));
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);  // nothing was initialized
  TakeErrMsg();
}

TEST(AclLifecycle, CanonicalOrderWorks) {
  ACL_OK(aclInit(nullptr));
  ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ACL_OK(aclrtCreateStream(&stream));
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
  ACL_OK(aclrtSynchronizeStream(stream));
  ACL_OK(aclrtFree(dev));
  ACL_OK(aclrtDestroyStream(stream));
  ACL_OK(aclrtResetDevice(0));
  ACL_OK(aclFinalize());
}

TEST(AclLifecycle, FinalizeReleasesEverything) {
  ACL_OK(aclInit(nullptr));
  ACL_OK(aclrtSetDevice(0));
  void *dev = nullptr;
  aclrtStream stream = nullptr;
  ACL_OK(aclrtMalloc(&dev, 100, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtCreateStream(&stream));
  ACL_OK(aclFinalize());  // no reset, no free: finalize cleans up
  ACL_OK(aclInit(nullptr));
  int32_t device = -1;
  EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);  // old context is gone
  TakeErrMsg();
  ACL_OK(aclFinalize());
}

TEST(AclErrMsg, ObtainsAndClearsNewestFirst) {
  ACL_OK(aclInit(nullptr));
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
  EXPECT_EQ(aclrtSetDevice(5), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  const std::string both = TakeErrMsg();
  const size_t newest = both.find("aclrtFree"), oldest = both.find("device id 5");
  ASSERT_NE(newest, std::string::npos) << both;
  ASSERT_NE(oldest, std::string::npos) << both;
  EXPECT_LT(newest, oldest) << both;
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);  // cleared
  ACL_OK(aclFinalize());
}

TEST(AclDevice, DeviceIdsAndCounts) {
  ACL_OK(aclInit(nullptr));
  uint32_t count = 0;
  ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_TRUE(Contains(TakeErrMsg(), "out of range"));
  int32_t device = -1;
  EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_TRUE(Contains(TakeErrMsg(), "aclrtSetDevice"));
  EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);  // never set
  EXPECT_TRUE(Contains(TakeErrMsg(), "not set"));
  ACL_OK(aclrtSetDevice(0));
  ACL_OK(aclrtSetDevice(0));  // reference-counted
  ACL_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 0);
  ACL_OK(aclrtResetDevice(0));
  ACL_OK(aclrtGetDevice(&device));  // one reference left
  ACL_OK(aclrtResetDevice(0));
  EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
  TakeErrMsg();
  ACL_OK(aclFinalize());
}

TEST(AclDevice, SocFromEnvironment) {
  ACL_OK(aclInit(nullptr));
  unsetenv("ASCEND_TWIN_SOC_VERSION");
  ASSERT_NE(aclrtGetSocName(), nullptr);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910B1");
  setenv("ASCEND_TWIN_SOC_VERSION", "Ascend950PR_9599", 1);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend950PR_9599");
  ACL_OK(aclrtSetDevice(0));
  ACL_OK(aclrtResetDevice(0));
  setenv("ASCEND_TWIN_SOC_VERSION", "Ascend999X", 1);
  EXPECT_EQ(aclrtGetSocName(), nullptr);
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_RT_SOC_VERSION);
  const std::string msg = TakeErrMsg();
  EXPECT_TRUE(Contains(msg, "ASCEND_TWIN_SOC_VERSION=Ascend999X is not a known SoC")) << msg;
  EXPECT_TRUE(Contains(msg, "Ascend910B1")) << msg;  // lists the known ones
  unsetenv("ASCEND_TWIN_SOC_VERSION");
  ACL_OK(aclFinalize());
}

TEST(AclDevice, ContextsCreateSetDestroy) {
  ACL_OK(aclInit(nullptr));
  aclrtContext ctx = nullptr, current = nullptr;
  EXPECT_EQ(aclrtCreateContext(nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateContext(&ctx, 3), ACL_ERROR_RT_INVALID_DEVICEID);
  ACL_OK(aclrtCreateContext(&ctx, 0));
  ACL_OK(aclrtGetCurrentContext(&current));
  EXPECT_EQ(current, ctx);
  ACL_OK(aclrtSetDevice(0));
  aclrtContext default_ctx = nullptr;
  ACL_OK(aclrtGetCurrentContext(&default_ctx));
  EXPECT_NE(default_ctx, ctx);
  EXPECT_EQ(aclrtDestroyContext(default_ctx), ACL_ERROR_RT_PARAM_INVALID);  // only created ones
  ACL_OK(aclrtSetCurrentContext(ctx));
  ACL_OK(aclrtDestroyContext(ctx));
  EXPECT_EQ(aclrtDestroyContext(ctx), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtSetCurrentContext(ctx), ACL_ERROR_RT_INVALID_HANDLE);
  ACL_OK(aclrtSetCurrentContext(default_ctx));
  ACL_OK(aclrtResetDevice(0));
  TakeErrMsg();
  ACL_OK(aclFinalize());
}

TEST(AclDevice, NoCurrentContextOnAnotherThread) {
  ACL_OK(aclInit(nullptr));
  ACL_OK(aclrtSetDevice(0));
  aclError on_other_thread = ACL_SUCCESS;
  std::thread([&] {
    void *ptr = nullptr;
    on_other_thread = aclrtMalloc(&ptr, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    TakeErrMsg();
  }).join();
  EXPECT_EQ(on_other_thread, ACL_ERROR_RT_CONTEXT_NULL);
  ACL_OK(aclrtResetDevice(0));
  ACL_OK(aclFinalize());
}

using AclMemory = AclTest;

TEST_F(AclMemory, MallocFreeErrors) {
  void *dev = nullptr;
  EXPECT_EQ(aclrtMalloc(nullptr, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMalloc(&dev, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(Contains(TakeErrMsg(), "size must be > 0"));
  ACL_OK(aclrtMalloc(&dev, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(dev) % 4096, 0u);
  EXPECT_EQ(aclrtFree(static_cast<char *>(dev) + 8), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_TRUE(Contains(TakeErrMsg(), "not its start"));
  int on_stack = 0;
  EXPECT_EQ(aclrtFree(&on_stack), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_TRUE(Contains(TakeErrMsg(), "not a live device allocation"));
  ACL_OK(aclrtFree(dev));
  EXPECT_EQ(aclrtFree(dev), ACL_ERROR_RT_PARAM_INVALID);  // double free
  EXPECT_TRUE(Contains(TakeErrMsg(), "already freed"));
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  TakeErrMsg();
}

TEST_F(AclMemory, HostMemory) {
  void *host = nullptr;
  EXPECT_EQ(aclrtMallocHost(&host, 0), ACL_ERROR_INVALID_PARAM);
  ACL_OK(aclrtMallocHost(&host, 256));
  std::memset(host, 0x5a, 256);
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(aclrtFreeHost(dev), ACL_ERROR_RT_PARAM_INVALID);  // device memory is not host memory
  EXPECT_EQ(aclrtFree(host), ACL_ERROR_RT_PARAM_INVALID);     // and the other way round
  ACL_OK(aclrtFreeHost(host));
  EXPECT_EQ(aclrtFreeHost(host), ACL_ERROR_RT_PARAM_INVALID);
  ACL_OK(aclrtFree(dev));
  TakeErrMsg();
}

TEST_F(AclMemory, HostRegisterErrors) {
  void *host = std::aligned_alloc(4096, 8192);
  ASSERT_NE(host, nullptr);
  void *dev = nullptr;
  EXPECT_EQ(aclrtHostRegister(nullptr, 64, ACL_HOST_REGISTER_MAPPED, &dev), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostRegister(host, 64, ACL_HOST_REGISTER_MAPPED, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostRegister(static_cast<char *>(host) + 32, 64, ACL_HOST_REGISTER_MAPPED, &dev),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(Contains(TakeErrMsg(), "not 4 KiB (page) aligned"));
  EXPECT_EQ(aclrtHostRegister(host, 64, ACL_HOST_REGISTER_IOMEMORY, &dev), ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_TRUE(Contains(TakeErrMsg(), "only ACL_HOST_REGISTER_MAPPED"));
  ACL_OK(aclrtHostRegister(host, 8192, ACL_HOST_REGISTER_MAPPED, &dev));
  EXPECT_EQ(dev, host);
  EXPECT_EQ(aclrtHostRegister(static_cast<char *>(host) + 4096, 16, ACL_HOST_REGISTER_MAPPED, &dev),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(Contains(TakeErrMsg(), "overlaps the registered host range"));
  EXPECT_EQ(aclrtFree(host), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_TRUE(Contains(TakeErrMsg(), "aclrtHostUnregister"));
  EXPECT_EQ(aclrtHostUnregister(static_cast<char *>(host) + 4096), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(Contains(TakeErrMsg(), "not registered"));
  ACL_OK(aclrtHostUnregister(host));
  EXPECT_EQ(aclrtHostUnregister(host), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostUnregister(nullptr), ACL_ERROR_INVALID_PARAM);
  TakeErrMsg();
  std::free(host);
}

TEST_F(AclMemory, MemcpyRoundTripRandomData) {
  std::uniform_int_distribution<int> byte(0, 255);
  for (size_t size : {1u, 31u, 4096u, 100003u}) {
    std::vector<uint8_t> in(size), out(size, 0);
    for (auto &b : in) b = static_cast<uint8_t>(byte(Rng()));
    void *a = nullptr, *b = nullptr;
    ACL_OK(aclrtMalloc(&a, size, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMalloc(&b, size, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpy(a, size, in.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(b, size, a, size, ACL_MEMCPY_DEVICE_TO_DEVICE));
    ACL_OK(aclrtMemcpy(out.data(), size, b, size, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(in, out) << "size " << size;
    std::vector<uint8_t> again(size, 0);
    ACL_OK(aclrtMemcpy(again.data(), size, b, size, ACL_MEMCPY_DEFAULT));
    EXPECT_EQ(in, again);
    ACL_OK(aclrtFree(a));
    ACL_OK(aclrtFree(b));
  }
}

TEST_F(AclMemory, MemcpyBounds) {
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, 100, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint8_t> host(256, 7);
  EXPECT_EQ(aclrtMemcpy(dev, 50, host.data(), 100, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(Contains(TakeErrMsg(), "count 100 exceeds destMax 50"));
  EXPECT_EQ(aclrtMemcpy(dev, 256, host.data(), 101, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_TRUE(Contains(TakeErrMsg(), "destination"));
  EXPECT_EQ(aclrtMemcpy(host.data(), 256, static_cast<char *>(dev) + 50, 51, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_TRUE(Contains(TakeErrMsg(), "source"));
  EXPECT_EQ(aclrtMemcpy(host.data(), 256, host.data() + 128, 16, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_RT_PARAM_INVALID);  // a host pointer given as device source
  EXPECT_EQ(aclrtMemcpy(nullptr, 16, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(dev, 16, nullptr, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(dev, 16, host.data(), 16, static_cast<aclrtMemcpyKind>(42)), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(Contains(TakeErrMsg(), "kind 42"));
  ACL_OK(aclrtMemcpy(dev, 100, host.data(), 100, ACL_MEMCPY_HOST_TO_DEVICE));  // exactly fits
  ACL_OK(aclrtFree(dev));
  EXPECT_EQ(aclrtMemcpy(dev, 16, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  TakeErrMsg();
}

TEST_F(AclMemory, MemsetAndAsyncCopyInOrder) {
  const size_t size = 5000;
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(aclrtMemset(dev, 10, 0, 20), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemset(dev, size + 10, 0, size + 1), ACL_ERROR_RT_PARAM_INVALID);
  TakeErrMsg();
  const int value = static_cast<int>(std::uniform_int_distribution<int>(1, 255)(Rng()));
  ACL_OK(aclrtMemset(dev, size, value, size));
  std::vector<uint8_t> filled(size, 0);
  ACL_OK(aclrtMemcpy(filled.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(filled, std::vector<uint8_t>(size, static_cast<uint8_t>(value)));
  aclrtStream stream = nullptr;
  ACL_OK(aclrtCreateStream(&stream));
  std::vector<uint8_t> in(size), out(size, 0);
  for (auto &b : in) b = static_cast<uint8_t>(Rng()());
  ACL_OK(aclrtMemcpyAsync(dev, size, in.data(), size, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  ACL_OK(aclrtMemcpyAsync(out.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(in, out);  // the second copy saw the first (in-order stream)
  EXPECT_EQ(aclrtMemcpyAsync(dev, size, in.data(), size + 1, ACL_MEMCPY_HOST_TO_DEVICE, stream),
            ACL_ERROR_INVALID_PARAM);
  TakeErrMsg();
  ACL_OK(aclrtDestroyStream(stream));
  ACL_OK(aclrtFree(dev));
}

TEST_F(AclMemory, ResetDeviceFreesItsMemory) {
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtResetDevice(0));
  ACL_OK(aclrtSetDevice(0));
  EXPECT_EQ(aclrtFree(dev), ACL_ERROR_RT_PARAM_INVALID);
  TakeErrMsg();
}

using AclStream = AclTest;

TEST_F(AclStream, HandlesAreValidated) {
  aclrtStream stream = nullptr;
  EXPECT_EQ(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
  ACL_OK(aclrtCreateStream(&stream));
  ACL_OK(aclrtSynchronizeStream(stream));
  ACL_OK(aclrtSynchronizeStream(nullptr));  // default stream
  ACL_OK(aclrtSynchronizeDevice());
  ACL_OK(aclrtDestroyStream(stream));
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_TRUE(Contains(TakeErrMsg(), "not a live stream"));
  EXPECT_EQ(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM);
  int bogus = 0;
  EXPECT_EQ(aclrtSynchronizeStream(&bogus), ACL_ERROR_RT_INVALID_HANDLE);
  TakeErrMsg();
}

// asc-devkit's 09_log checks each launch with ASCENDC_CHECK(aclrtGetLastError(ACL_RT_THREAD_LEVEL)):
// the code of the thread's last failed call, which Get clears and Peek keeps; other threads
// have their own.
TEST(AclLastError, GetReturnsAndClearsPeekKeepsPerThread) {
  ACL_OK(aclrtSetDevice(0));
  aclrtGetLastError(ACL_RT_THREAD_LEVEL);  // what earlier tests of this process left
  TakeErrMsg();
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  void *p = nullptr;
  const aclError bad = aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST);
  ASSERT_NE(bad, ACL_SUCCESS);
  TakeErrMsg();
  ACL_OK(aclrtSynchronizeDevice());  // a success does not clear it
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), bad);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), bad);
  aclError other_thread = -1;
  std::thread([&] { other_thread = aclrtGetLastError(ACL_RT_THREAD_LEVEL); }).join();
  EXPECT_EQ(other_thread, ACL_SUCCESS);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), bad);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  // Only the thread level exists: another level is a bad parameter, named in the message.
  EXPECT_EQ(aclrtGetLastError(static_cast<aclrtLastErrLevel>(1)), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(Contains(TakeErrMsg(), "aclrtGetLastError: level 1 is not ACL_RT_THREAD_LEVEL (0)"));
  EXPECT_EQ(aclrtPeekAtLastError(static_cast<aclrtLastErrLevel>(2)), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(Contains(TakeErrMsg(), "aclrtPeekAtLastError: level 2 is not ACL_RT_THREAD_LEVEL (0)"));
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  ACL_OK(aclrtResetDevice(0));
}

}  // namespace
}  // namespace asc_twin::rt::testing

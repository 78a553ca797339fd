// What a user's ordinary calls do to memory, as on an NPU: an aclrtMemcpyAsync whose source or
// destination is freed before the stream is synchronized completes with the right data and never
// crashes the host (aclrtFree returns at once, the memory goes when the copy is done), and after
// fork() the child's stores to registered host memory or device memory never reach the parent.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "twin/runtime/internal/device.h"
#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

constexpr size_t k64MiB = size_t{64} << 20;

// How often each free-before-synchronize sequence runs (MEMSEM_RUNS overrides: more for a soak).
int Runs() {
  const char *env = std::getenv("MEMSEM_RUNS");
  return env != nullptr && std::atoi(env) > 0 ? std::atoi(env) : 12;
}

// Random data from the test's printed seed (one draw from Rng() seeds a local engine: fast).
std::vector<uint32_t> RandomWords(size_t bytes) {
  std::mt19937 engine(static_cast<uint32_t>(Rng()()));
  std::vector<uint32_t> words(bytes / sizeof(uint32_t));
  for (auto &word : words) word = engine();
  return words;
}

size_t HeldFreed() { return Runtime::GetOrInit()->memory().HeldFreedCount(); }

class MemorySemantics : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    AclTest::TearDown();
  }
  aclrtStream stream_ = nullptr;
};

TEST_F(MemorySemantics, DeviceSourceFreedBeforeSynchronizeStillCopiesItsData) {
  for (int run = 0; run < Runs(); ++run) {
    const std::vector<uint32_t> data = RandomWords(k64MiB);
    void *src = nullptr;
    ACL_OK(aclrtMalloc(&src, k64MiB, ACL_MEM_MALLOC_NORMAL_ONLY));
    ACL_OK(aclrtMemcpy(src, k64MiB, data.data(), k64MiB, ACL_MEMCPY_HOST_TO_DEVICE));
    std::vector<uint32_t> host(data.size());
    ACL_OK(aclrtMemcpyAsync(host.data(), k64MiB, src, k64MiB, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
    ACL_OK(aclrtFree(src));  // returns at once; the copy may still be running on a worker
    EXPECT_EQ(aclrtFree(src), ACL_ERROR_RT_PARAM_INVALID) << "freed once is freed";
    TakeErrMsg();
    ACL_OK(aclrtSynchronizeStream(stream_));
    ASSERT_EQ(std::memcmp(host.data(), data.data(), k64MiB), 0) << "run " << run;
    EXPECT_EQ(HeldFreed(), 0u) << "the memory goes once the copy is done";
  }
}

TEST_F(MemorySemantics, DeviceDestinationFreedBeforeSynchronizeIsHarmless) {
  for (int run = 0; run < Runs(); ++run) {
    const std::vector<uint32_t> data = RandomWords(k64MiB);
    void *dst = nullptr;
    ACL_OK(aclrtMalloc(&dst, k64MiB, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpyAsync(dst, k64MiB, data.data(), k64MiB, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
    ACL_OK(aclrtFree(dst));
    // An allocation made meanwhile never lands on the pages the copy is still writing.
    void *other = nullptr;
    ACL_OK(aclrtMalloc(&other, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
    ACL_OK(aclrtMemset(other, 4096, 0x5a, 4096));
    ACL_OK(aclrtSynchronizeStream(stream_));
    std::vector<uint8_t> back(4096);
    ACL_OK(aclrtMemcpy(back.data(), back.size(), other, back.size(), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(back, std::vector<uint8_t>(4096, 0x5a)) << "run " << run;
    ACL_OK(aclrtFree(other));
    EXPECT_EQ(HeldFreed(), 0u);
  }
}

TEST_F(MemorySemantics, DeviceToDeviceWithBothEndsFreedCompletes) {
  for (int run = 0; run < Runs(); ++run) {
    const std::vector<uint32_t> data = RandomWords(k64MiB);
    void *a = nullptr, *b = nullptr;
    ACL_OK(aclrtMalloc(&a, k64MiB, ACL_MEM_MALLOC_NORMAL_ONLY));
    ACL_OK(aclrtMalloc(&b, k64MiB, ACL_MEM_MALLOC_NORMAL_ONLY));
    ACL_OK(aclrtMemcpy(a, k64MiB, data.data(), k64MiB, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpyAsync(b, k64MiB, a, k64MiB, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_));
    std::vector<uint32_t> host(data.size());
    ACL_OK(aclrtMemcpyAsync(host.data(), k64MiB, b, k64MiB, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
    ACL_OK(aclrtFree(a));
    ACL_OK(aclrtFree(b));
    ACL_OK(aclrtSynchronizeStream(stream_));
    ASSERT_EQ(std::memcmp(host.data(), data.data(), k64MiB), 0) << "run " << run;
    EXPECT_EQ(HeldFreed(), 0u);
  }
}

TEST_F(MemorySemantics, PinnedHostSourceFreedBeforeSynchronizeStillCopiesItsData) {
  for (int run = 0; run < Runs(); ++run) {
    const std::vector<uint32_t> data = RandomWords(k64MiB);
    void *pinned = nullptr, *dev = nullptr;
    ACL_OK(aclrtMallocHost(&pinned, k64MiB));
    std::memcpy(pinned, data.data(), k64MiB);
    ACL_OK(aclrtMalloc(&dev, k64MiB, ACL_MEM_MALLOC_NORMAL_ONLY));
    ACL_OK(aclrtMemcpyAsync(dev, k64MiB, pinned, k64MiB, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
    ACL_OK(aclrtFreeHost(pinned));
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_ERROR_RT_PARAM_INVALID) << "freed once is freed";
    TakeErrMsg();
    ACL_OK(aclrtSynchronizeStream(stream_));
    std::vector<uint32_t> host(data.size());
    ACL_OK(aclrtMemcpy(host.data(), k64MiB, dev, k64MiB, ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(std::memcmp(host.data(), data.data(), k64MiB), 0) << "run " << run;
    ACL_OK(aclrtFree(dev));
  }
}

TEST_F(MemorySemantics, CopyQueuedAfterTheFreeIsRefusedInOneLine) {
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
  ACL_OK(aclrtFree(dev));
  std::vector<uint8_t> host(4096);
  EXPECT_EQ(aclrtMemcpyAsync(host.data(), host.size(), dev, host.size(), ACL_MEMCPY_DEVICE_TO_HOST, stream_),
            ACL_ERROR_RT_PARAM_INVALID);
  const std::string message = TakeErrMsg();
  EXPECT_NE(message.find("aclrtMemcpyAsync: source"), std::string::npos) << message;
  EXPECT_NE(message.find("not inside one live"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST_F(MemorySemantics, ForkChildStoresNeverReachTheParent) {
  const size_t bytes = size_t{1} << 20;
  const std::vector<uint32_t> data = RandomWords(bytes);
  // Registered host memory (the caller's own pages, shared with the device process) ...
  void *registered = aligned_alloc(4096, bytes);
  ASSERT_NE(registered, nullptr);
  std::memcpy(registered, data.data(), bytes);
  void *registered_dev = nullptr;
  ACL_OK(aclrtHostRegister(registered, bytes, ACL_HOST_REGISTER_MAPPED, &registered_dev));
  // ... and device memory.
  void *dev = nullptr;
  ACL_OK(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  ACL_OK(aclrtMemcpy(dev, bytes, data.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  int to_child[2], to_parent[2];
  ASSERT_EQ(pipe(to_child), 0);
  ASSERT_EQ(pipe(to_parent), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    // The child sees the data as it was at fork(), writes over it, and later still sees its own
    // stores, not the parent's.
    bool ok = std::memcmp(registered, data.data(), bytes) == 0 && std::memcmp(dev, data.data(), bytes) == 0;
    std::memset(registered, 0xc1, bytes);
    std::memset(dev, 0xc2, bytes);
    char token = 'w';
    ok = ok && write(to_parent[1], &token, 1) == 1 && read(to_child[0], &token, 1) == 1;
    const std::vector<uint8_t> c1(bytes, 0xc1);
    ok = ok && std::memcmp(registered, c1.data(), bytes) == 0;
    // ACL itself is the parent's: every call is refused in one line, and nothing reaches the
    // parent's device process (an unregister would otherwise unmap the range there).
    void *more = nullptr;
    ok = ok && aclrtMalloc(&more, 4096, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_ERROR_FEATURE_UNSUPPORTED;
    const std::string refused = TakeErrMsg();
    ok = ok && refused.rfind("aclrtMalloc: this process is a fork() child", 0) == 0 &&
         refused.find('\n') == std::string::npos;
    ok = ok && aclrtHostUnregister(registered) == ACL_ERROR_FEATURE_UNSUPPORTED;
    if (!ok) std::fprintf(stderr, "child: %s\n", refused.c_str());
    _exit(ok ? 0 : 1);
  }
  ASSERT_GT(pid, 0);
  char token = 0;
  ASSERT_EQ(read(to_parent[0], &token, 1), 1);
  EXPECT_EQ(std::memcmp(registered, data.data(), bytes), 0) << "the child's store reached the registered range";
  std::vector<uint32_t> back(data.size());
  ACL_OK(aclrtMemcpy(back.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, data) << "the child's store reached device memory";
  std::memset(registered, 0x77, bytes);  // the parent's own store: the child must not see it
  ASSERT_EQ(write(to_child[1], &token, 1), 1);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child saw data that was not its own";
  for (int fd : {to_child[0], to_child[1], to_parent[0], to_parent[1]}) close(fd);

  // The parent's runtime is unaffected: the registration and the device memory still work.
  ACL_OK(aclrtMemcpy(dev, bytes, registered, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
  ACL_OK(aclrtMemcpy(back.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, std::vector<uint32_t>(data.size(), 0x77777777u));
  ACL_OK(aclrtFree(dev));
  ACL_OK(aclrtHostUnregister(registered));
  std::free(registered);
}

}  // namespace
}  // namespace asc_twin::rt::testing

// The ACL bad-input suite: misuse of the C API (wrong order, null and out-of-range arguments,
// stale and unknown handles, freed memory, non-regular files, malformed and crafted kernel
// images, double destroys) returns an error code and a message — never a crash or a hang —
// and the process stays usable: after every case of a table, a kernel launch still computes
// right. Each case prints one line "[bad-input] <name>: <code> <message>".
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

struct Case {
  const char *name;
  aclError expected;
  std::function<aclError()> call;
  const char *message_part = nullptr;  // also required in aclGetRecentErrMsg, if set
};

int g_cases_run = 0;

void RunCases(const std::vector<Case> &cases) {
  for (const Case &c : cases) {
    TakeErrMsg();
    const aclError got = c.call();
    const std::string message = TakeErrMsg();
    std::cout << "[bad-input] " << c.name << ": " << got << " " << message << std::endl;
    EXPECT_EQ(got, c.expected) << c.name << ": " << message;
    if (c.message_part != nullptr) {
      EXPECT_NE(message.find(c.message_part), std::string::npos) << c.name << ": " << message;
    }
    ++g_cases_run;
  }
}

// Without aclInit ACL initializes on first use (CANN's rule): calls answer as after aclInit, and
// bad arguments are still refused by their own checks.
TEST(AclBadInput, CallsWithoutAclInit) {
  aclrtBinHandle bin = nullptr;
  uint32_t id = 0;
  int32_t device = 0;
  uint64_t bytes = 0;
  RunCases({
      {"finalize before any use", ACL_ERROR_REPEAT_FINALIZE, [] { return aclFinalize(); }},
      {"get device before set device", ACL_ERROR_RT_CONTEXT_NULL, [&] { return aclrtGetDevice(&device); }},
      {"free of memory never allocated", ACL_ERROR_RT_PARAM_INVALID, [&] { return aclrtFree(&bytes); }},
      {"load a binary before set device", ACL_ERROR_RT_CONTEXT_NULL,
       [&] { return aclrtBinaryLoadFromData(&bytes, 8, nullptr, &bin); }},
      {"model load of garbage", ACL_ERROR_MODEL_SIZE_INVALID, [&] { return aclmdlLoadFromMem(&bytes, 8, &id); }},
      {"aclInit after first use", ACL_SUCCESS, [] { return aclInit(nullptr); }},
      {"second aclInit", ACL_ERROR_REPEAT_INITIALIZE, [] { return aclInit(nullptr); }},
      {"finalize", ACL_SUCCESS, [] { return aclFinalize(); }},
      {"finalize again", ACL_ERROR_REPEAT_FINALIZE, [] { return aclFinalize(); }},
  });
}

class AclBadInputTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    good_ = ReadFile(KernelPath("k2201"));
    ACL_OK(aclrtBinaryLoadFromData(good_.data(), good_.size(), nullptr, &bin_));
    ACL_OK(aclrtBinaryGetFunction(bin_, "vadd_f32", &vadd_));
    ACL_OK(aclrtCreateStream(&stream_));
    char dir[] = "/tmp/asc_twin_bad_input_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(aclrtBinaryUnLoad(bin_), ACL_SUCCESS) << TakeErrMsg();
    for (const char *name : {"fifo", "empty", "garbage", "acl.fifo", "garbage.json", "acl.json", "deep.json",
                             "huge.json", "too_deep.json"}) {
      unlink((dir_ + "/" + name).c_str());
    }
    rmdir((dir_ + "/dir").c_str());
    rmdir(dir_.c_str());
    AclTest::TearDown();
  }
  // The process is still usable: vadd on random data, exact.
  void CheckStillWorks() {
    const uint64_t n = 1 + Rng()() % 50000;
    DeviceAddOperands ops;
    ASSERT_NO_FATAL_FAILURE(ops.Upload(n, -10.0f, 10.0f));
    uint64_t args[4] = {reinterpret_cast<uint64_t>(ops.dx), reinterpret_cast<uint64_t>(ops.dy),
                        reinterpret_cast<uint64_t>(ops.dz), n};
    ACL_OK(aclrtLaunchKernel(vadd_, 1 + static_cast<uint32_t>(Rng()() % 9), args, sizeof(args), stream_));
    ACL_OK(aclrtSynchronizeStream(stream_));
    std::vector<float> z(n);
    ACL_OK(aclrtMemcpy(z.data(), ops.bytes, ops.dz, ops.bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(z[i], ops.x[i] + ops.y[i]);
  }
  std::vector<uint8_t> good_;
  aclrtBinHandle bin_ = nullptr;
  aclrtFuncHandle vadd_ = nullptr;
  aclrtStream stream_ = nullptr;
  std::string dir_;
};

TEST_F(AclBadInputTest, DevicesContextsStreams) {
  int32_t device = 0;
  aclrtContext ctx = nullptr, default_ctx = nullptr;
  ACL_OK(aclrtGetCurrentContext(&default_ctx));
  aclrtStream dead = nullptr;
  ACL_OK(aclrtCreateStream(&dead));
  ACL_OK(aclrtDestroyStream(dead));
  int bogus = 0;
  // aclInit's config: checked before anything else (so also on a second aclInit).
  const std::string fifo = dir_ + "/acl.fifo", garbage = dir_ + "/garbage.json", good = dir_ + "/acl.json",
                    deep = dir_ + "/deep.json", huge = dir_ + "/huge.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto write = [](const std::string &path, const std::string &text) {
    FILE *f = std::fopen(path.c_str(), "wb");
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  };
  write(garbage, "\x7f\x45\x4c\x46 not json");
  write(good, "{\"dump\": {\"dump_list\": [], \"dump_path\": \"/tmp\", \"dump_mode\": \"output\"}, \"n\": -1.5e3}");
  write(deep, std::string(100, '[') + std::string(100, ']'));
  std::string nested;
  for (int i = 0; i < 70; ++i) nested += "{\"a\":";
  nested += "1" + std::string(70, '}');
  const std::string too_deep = dir_ + "/too_deep.json";
  write(too_deep, nested);
  write(huge, "{\"k\": \"" + std::string(2 << 20, 'x') + "\"}");
  RunCases({
      {"second aclInit", ACL_ERROR_REPEAT_INITIALIZE, [] { return aclInit(nullptr); }},
      {"aclInit with a missing config", ACL_ERROR_INVALID_FILE, [] { return aclInit("/nonexistent/acl.json"); }},
      {"aclInit with a directory as config", ACL_ERROR_INVALID_FILE, [&] { return aclInit(dir_.c_str()); }},
      {"aclInit with a FIFO as config (never blocks)", ACL_ERROR_INVALID_FILE, [&] { return aclInit(fifo.c_str()); }},
      {"aclInit with /dev/zero as config", ACL_ERROR_INVALID_FILE, [] { return aclInit("/dev/zero"); }},
      {"aclInit with garbage config", ACL_ERROR_PARSE_FILE, [&] { return aclInit(garbage.c_str()); }},
      {"aclInit with a config that is not an object", ACL_ERROR_PARSE_FILE, [&] { return aclInit(deep.c_str()); }},
      {"aclInit with a config nested 70 deep", ACL_ERROR_PARSE_FILE, [&] { return aclInit(too_deep.c_str()); }},
      {"aclInit with a 2 MiB config", ACL_ERROR_INVALID_FILE_SIZE, [&] { return aclInit(huge.c_str()); }},
      {"second aclInit with a good config", ACL_ERROR_REPEAT_INITIALIZE, [&] { return aclInit(good.c_str()); }},
      {"set device -1", ACL_ERROR_RT_INVALID_DEVICEID, [] { return aclrtSetDevice(-1); }},
      {"set device 1 of 1", ACL_ERROR_RT_INVALID_DEVICEID, [] { return aclrtSetDevice(1); }},
      {"reset device never set", ACL_ERROR_RT_INVALID_DEVICEID, [] { return aclrtResetDevice(7); }},
      {"get device null", ACL_ERROR_INVALID_PARAM, [] { return aclrtGetDevice(nullptr); }},
      {"get device count null", ACL_ERROR_INVALID_PARAM, [] { return aclrtGetDeviceCount(nullptr); }},
      {"get run mode null", ACL_ERROR_INVALID_PARAM, [] { return aclrtGetRunMode(nullptr); }},
      {"create context null", ACL_ERROR_INVALID_PARAM, [] { return aclrtCreateContext(nullptr, 0); }},
      {"create context bad device", ACL_ERROR_RT_INVALID_DEVICEID, [&] { return aclrtCreateContext(&ctx, 3); }},
      {"destroy context null", ACL_ERROR_INVALID_PARAM, [] { return aclrtDestroyContext(nullptr); }},
      {"destroy unknown context", ACL_ERROR_RT_INVALID_HANDLE, [&] { return aclrtDestroyContext(&bogus); }},
      {"destroy default context", ACL_ERROR_RT_PARAM_INVALID, [&] { return aclrtDestroyContext(default_ctx); }},
      {"set current context unknown", ACL_ERROR_RT_INVALID_HANDLE, [&] { return aclrtSetCurrentContext(&bogus); }},
      {"get current context null", ACL_ERROR_INVALID_PARAM, [] { return aclrtGetCurrentContext(nullptr); }},
      {"create stream null", ACL_ERROR_INVALID_PARAM, [] { return aclrtCreateStream(nullptr); }},
      {"destroy stream null", ACL_ERROR_INVALID_PARAM, [] { return aclrtDestroyStream(nullptr); }},
      {"destroy stream twice", ACL_ERROR_RT_INVALID_HANDLE, [&] { return aclrtDestroyStream(dead); }},
      {"synchronize destroyed stream", ACL_ERROR_RT_INVALID_HANDLE, [&] { return aclrtSynchronizeStream(dead); }},
      {"synchronize with timeout 0", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtSynchronizeStreamWithTimeout(stream_, 0); }},
      {"synchronize with timeout -5", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtSynchronizeStreamWithTimeout(stream_, -5); }},
      {"synchronize with timeout, destroyed stream", ACL_ERROR_RT_INVALID_HANDLE,
       [&] { return aclrtSynchronizeStreamWithTimeout(dead, 10); }},
      {"get op execute timeout null", ACL_ERROR_INVALID_PARAM, [] { return aclrtGetOpExecuteTimeout(nullptr); }},
  });
  ACL_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 0);
  CheckStillWorks();
}

TEST_F(AclBadInputTest, Memory) {
  void *dev = nullptr, *freed = nullptr, *out = nullptr, *host = nullptr;
  ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtMalloc(&freed, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtFree(freed));
  void *flagged = nullptr;  // a page rule with CANN's memory-type flags is a valid policy
  ACL_OK(aclrtMalloc(&flagged, 4096,
                     static_cast<aclrtMemMallocPolicy>(ACL_MEM_MALLOC_NORMAL_ONLY | ACL_MEM_TYPE_HIGH_BAND_WIDTH)));
  ACL_OK(aclrtFree(flagged));
  ACL_OK(aclrtMallocHost(&host, 256));
  std::vector<uint8_t> buffer(8192, 1);
  void *page = mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  void *registered = nullptr;
  ACL_OK(aclrtHostRegister(page, 8192, ACL_HOST_REGISTER_MAPPED, &registered));
  char *dev_bytes = static_cast<char *>(dev);
  RunCases({
      {"malloc null out", ACL_ERROR_INVALID_PARAM, [] { return aclrtMalloc(nullptr, 16, ACL_MEM_MALLOC_HUGE_FIRST); }},
      {"malloc size 0", ACL_ERROR_INVALID_PARAM, [&] { return aclrtMalloc(&out, 0, ACL_MEM_MALLOC_HUGE_FIRST); }},
      {"malloc policy 12345", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtMalloc(&out, 64, static_cast<aclrtMemMallocPolicy>(12345)); }},
      {"malloc policy with an unknown flag", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtMalloc(&out, 64, static_cast<aclrtMemMallocPolicy>(ACL_MEM_MALLOC_NORMAL_ONLY | 0x200)); }},
      {"malloc beyond any device", ACL_ERROR_RT_MEMORY_ALLOCATION,
       [&] { return aclrtMalloc(&out, size_t{1} << 50, ACL_MEM_MALLOC_HUGE_FIRST); }},
      {"free null", ACL_ERROR_INVALID_PARAM, [] { return aclrtFree(nullptr); }},
      {"free host pointer", ACL_ERROR_RT_PARAM_INVALID, [&] { return aclrtFree(buffer.data()); }},
      {"free twice", ACL_ERROR_RT_PARAM_INVALID, [&] { return aclrtFree(freed); }},
      {"free interior pointer", ACL_ERROR_RT_PARAM_INVALID, [&] { return aclrtFree(dev_bytes + 64); }},
      {"free a registration", ACL_ERROR_RT_PARAM_INVALID, [&] { return aclrtFree(page); }},
      {"free host of unknown", ACL_ERROR_RT_PARAM_INVALID, [&] { return aclrtFreeHost(buffer.data()); }},
      {"malloc host null", ACL_ERROR_INVALID_PARAM, [] { return aclrtMallocHost(nullptr, 16); }},
      {"memcpy null dst", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtMemcpy(nullptr, 8, buffer.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE); }},
      {"memcpy null src", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtMemcpy(dev, 8, nullptr, 8, ACL_MEMCPY_HOST_TO_DEVICE); }},
      {"memcpy count > destMax", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtMemcpy(dev, 8, buffer.data(), 9, ACL_MEMCPY_HOST_TO_DEVICE); }},
      {"memcpy bad kind", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtMemcpy(dev, 8, buffer.data(), 8, static_cast<aclrtMemcpyKind>(99)); }},
      {"memcpy past the allocation", ACL_ERROR_RT_PARAM_INVALID,
       [&] { return aclrtMemcpy(dev, 8192, buffer.data(), 8192, ACL_MEMCPY_HOST_TO_DEVICE); }},
      {"memcpy from freed memory", ACL_ERROR_RT_PARAM_INVALID,
       [&] { return aclrtMemcpy(buffer.data(), 64, freed, 64, ACL_MEMCPY_DEVICE_TO_HOST); }},
      {"memcpy into freed memory, kind DEFAULT", ACL_ERROR_RT_PARAM_INVALID,
       [&] { return aclrtMemcpy(freed, 64, buffer.data(), 64, ACL_MEMCPY_DEFAULT); }, "not inside one live allocation"},
      {"memcpy into freed memory, kind HOST_TO_HOST", ACL_ERROR_RT_PARAM_INVALID,
       [&] { return aclrtMemcpy(freed, 64, buffer.data(), 64, ACL_MEMCPY_HOST_TO_HOST); }},
      {"memcpy async, bad stream", ACL_ERROR_RT_INVALID_HANDLE,
       [&] { return aclrtMemcpyAsync(dev, 64, buffer.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE, buffer.data()); }},
      // CANN's aclrtFree does not synchronize; the twin keeps the memory until the queued copy
      // ran (memory_semantics_test checks the data), so the stream reports no error.
      {"memcpy async then free before synchronize", ACL_SUCCESS,
       [&] {
         void *doomed = nullptr;
         aclError e = aclrtMalloc(&doomed, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST);
         if (e != ACL_SUCCESS) return e;
         std::vector<uint8_t> src(1 << 20, 7);
         aclrtStream s = nullptr;
         aclrtCreateStream(&s);
         // Queue a slow task first so the copy is still queued when the memory goes.
         uint64_t args[4] = {reinterpret_cast<uint64_t>(dev), reinterpret_cast<uint64_t>(dev),
                             reinterpret_cast<uint64_t>(dev), 1024};
         aclrtLaunchKernel(vadd_, 1, args, sizeof(args), s);
         e = aclrtMemcpyAsync(doomed, 1 << 20, src.data(), 1 << 20, ACL_MEMCPY_HOST_TO_DEVICE, s);
         if (e != ACL_SUCCESS) return e;
         aclrtFree(doomed);
         e = aclrtSynchronizeStream(s);
         aclrtDestroyStream(s);
         return e;
       }},
      {"memset null", ACL_ERROR_INVALID_PARAM, [] { return aclrtMemset(nullptr, 8, 0, 8); }},
      {"memset count > maxCount", ACL_ERROR_INVALID_PARAM, [&] { return aclrtMemset(dev, 8, 0, 9); }},
      {"memset past the allocation", ACL_ERROR_RT_PARAM_INVALID, [&] { return aclrtMemset(dev, 8192, 0, 8192); }},
      {"memset freed memory", ACL_ERROR_RT_PARAM_INVALID, [&] { return aclrtMemset(freed, 64, 0, 64); },
       "not a live allocation"},
      {"host register unaligned", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtHostRegister(static_cast<char *>(page) + 8, 64, ACL_HOST_REGISTER_MAPPED, &out); }},
      {"host register size 0", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtHostRegister(page, 0, ACL_HOST_REGISTER_MAPPED, &out); }},
      {"host register null devPtr", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtHostRegister(page, 4096, ACL_HOST_REGISTER_MAPPED, nullptr); }},
      {"host register IOMEMORY", ACL_ERROR_FEATURE_UNSUPPORTED,
       [&] { return aclrtHostRegister(page, 4096, ACL_HOST_REGISTER_IOMEMORY, &out); }},
      {"host register twice", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtHostRegister(page, 4096, ACL_HOST_REGISTER_MAPPED, &out); }},
      {"host register device memory", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtHostRegister(freed, 4096, ACL_HOST_REGISTER_MAPPED, &out); }},
      {"host unregister unknown", ACL_ERROR_INVALID_PARAM, [&] { return aclrtHostUnregister(buffer.data()); }},
      {"host unregister null", ACL_ERROR_INVALID_PARAM, [] { return aclrtHostUnregister(nullptr); }},
  });
  ACL_OK(aclrtHostUnregister(page));
  munmap(page, 8192);
  ACL_OK(aclrtFreeHost(host));
  ACL_OK(aclrtFree(dev));
  CheckStillWorks();
}

TEST_F(AclBadInputTest, KernelBinariesAndLaunches) {
  const std::string fifo = dir_ + "/fifo", empty = dir_ + "/empty", garbage = dir_ + "/garbage", dir = dir_ + "/dir";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  {
    FILE *f = std::fopen(empty.c_str(), "w");
    std::fclose(f);
  }
  {
    FILE *f = std::fopen(garbage.c_str(), "w");
    std::fputs("not an ELF file at all", f);
    std::fclose(f);
  }
  ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
  aclrtBinHandle bin = nullptr, unloaded = nullptr;
  aclrtFuncHandle func = nullptr, stale = nullptr;
  ACL_OK(aclrtBinaryLoadFromData(good_.data(), good_.size(), nullptr, &unloaded));
  ACL_OK(aclrtBinaryGetFunction(unloaded, "vadd_f32", &stale));
  ACL_OK(aclrtBinaryUnLoad(unloaded));
  std::vector<uint8_t> truncated(good_.begin(), good_.begin() + static_cast<long>(good_.size() / 3));
  const std::vector<uint8_t> ctor = ReadFile(KernelPath("kctor")), needed = ReadFile(KernelPath("kneeded")),
                             runpath = ReadFile(KernelPath("krunpath")), execstack = ReadFile(KernelPath("kexecstack")),
                             ifunc = ReadFile(KernelPath("kifunc"));
  aclrtBinaryLoadOption magic{};
  magic.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  magic.value.magic = 0x12345678;
  aclrtBinaryLoadOptions bad_magic{&magic, 1};
  aclrtBinaryLoadOption cpu{};
  cpu.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
  aclrtBinaryLoadOptions cpu_mode{&cpu, 1};
  aclrtBinaryLoadOptions null_options{nullptr, 2};
  uint64_t args[4] = {0, 0, 0, 0};
  std::vector<uint8_t> huge_args(64 * 1024 + 8, 0);  // over the 64 KiB launch limit
  size_t count = 0;
  auto load = [&](const std::vector<uint8_t> &bytes) {
    aclError e = aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &bin);
    if (e == ACL_SUCCESS) aclrtBinaryUnLoad(bin);
    return e;
  };
  RunCases({
      {"load null data", ACL_ERROR_INVALID_PARAM, [&] { return aclrtBinaryLoadFromData(nullptr, 8, nullptr, &bin); }},
      {"load null handle", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtBinaryLoadFromData(good_.data(), good_.size(), nullptr, nullptr); }},
      {"load length 0", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtBinaryLoadFromData(good_.data(), 0, nullptr, &bin); }},
      {"load garbage bytes", ACL_ERROR_INVALID_PARAM, [&] { return load(std::vector<uint8_t>(100, 0x41)); }},
      {"load truncated image", ACL_ERROR_INVALID_PARAM, [&] { return load(truncated); }},
      {"load image with a constructor", ACL_ERROR_INVALID_PARAM, [&] { return load(ctor); }, "constructors"},
      {"load image needing an absolute-path library", ACL_ERROR_INVALID_PARAM, [&] { return load(needed); },
       "needs '/tmp/asc_twin_evil_library.so'"},
      {"load image with RUNPATH", ACL_ERROR_INVALID_PARAM, [&] { return load(runpath); }, "DT_RPATH/DT_RUNPATH"},
      {"load image with an executable stack", ACL_ERROR_INVALID_PARAM, [&] { return load(execstack); },
       "executable stack"},
      {"load image with an IFUNC (resolver runs at load)", ACL_ERROR_INVALID_PARAM, [&] { return load(ifunc); },
       "IFUNC"},
      {"load bad magic option", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtBinaryLoadFromData(good_.data(), good_.size(), &bad_magic, &bin); }},
      {"load CPU kernel mode", ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
       [&] { return aclrtBinaryLoadFromData(good_.data(), good_.size(), &cpu_mode, &bin); }},
      {"load options with null array", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtBinaryLoadFromData(good_.data(), good_.size(), &null_options, &bin); }},
      {"load file null path", ACL_ERROR_INVALID_PARAM, [&] { return aclrtBinaryLoadFromFile(nullptr, nullptr, &bin); }},
      {"load file missing", ACL_ERROR_INVALID_FILE,
       [&] { return aclrtBinaryLoadFromFile("/nonexistent/k.o", nullptr, &bin); }},
      {"load file /dev/zero", ACL_ERROR_INVALID_FILE,
       [&] { return aclrtBinaryLoadFromFile("/dev/zero", nullptr, &bin); }, "not a regular file"},
      {"load file FIFO (would block)", ACL_ERROR_INVALID_FILE,
       [&] { return aclrtBinaryLoadFromFile(fifo.c_str(), nullptr, &bin); }, "not a regular file"},
      {"load file directory", ACL_ERROR_INVALID_FILE,
       [&] { return aclrtBinaryLoadFromFile(dir.c_str(), nullptr, &bin); }},
      {"load file empty", ACL_ERROR_INVALID_FILE,
       [&] { return aclrtBinaryLoadFromFile(empty.c_str(), nullptr, &bin); }},
      {"load file garbage", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtBinaryLoadFromFile(garbage.c_str(), nullptr, &bin); }},
      {"get function null name", ACL_ERROR_INVALID_PARAM, [&] { return aclrtBinaryGetFunction(bin_, nullptr, &func); }},
      {"get function with control characters in the name", ACL_ERROR_RT_KERNEL_LOOKUP,
       [&] { return aclrtBinaryGetFunction(bin_, "evil\n\x1b[2Jname", &func); }, "kernel 'evil\\x0a\\x1b[2Jname'"},
      {"get function unknown kernel", ACL_ERROR_RT_KERNEL_LOOKUP,
       [&] { return aclrtBinaryGetFunction(bin_, "no_such_kernel", &func); }},
      {"get function of an unloaded binary", ACL_ERROR_RT_INVALID_HANDLE,
       [&] { return aclrtBinaryGetFunction(unloaded, "vadd_f32", &func); }},
      {"unload twice", ACL_ERROR_RT_INVALID_HANDLE, [&] { return aclrtBinaryUnLoad(unloaded); }},
      {"unload null", ACL_ERROR_INVALID_PARAM, [] { return aclrtBinaryUnLoad(nullptr); }},
      {"param count of a stale function", ACL_ERROR_RT_INVALID_HANDLE,
       [&] { return aclrtFunctionGetParamCount(stale, &count); }},
      {"launch a stale function", ACL_ERROR_RT_INVALID_HANDLE,
       [&] { return aclrtLaunchKernel(stale, 1, args, sizeof(args), stream_); }},
      {"launch null function", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtLaunchKernel(nullptr, 1, args, sizeof(args), stream_); }},
      {"launch 0 blocks", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtLaunchKernel(vadd_, 0, args, sizeof(args), stream_); }},
      {"launch 65536 blocks", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtLaunchKernel(vadd_, 65536, args, sizeof(args), stream_); }},
      {"launch null args", ACL_ERROR_INVALID_PARAM, [&] { return aclrtLaunchKernel(vadd_, 1, nullptr, 32, stream_); }},
      {"launch short args", ACL_ERROR_INVALID_PARAM, [&] { return aclrtLaunchKernel(vadd_, 1, args, 8, stream_); }},
      {"launch oversized args", ACL_ERROR_INVALID_PARAM,
       [&] { return aclrtLaunchKernel(vadd_, 1, huge_args.data(), huge_args.size(), stream_); }},
      {"launch on a destroyed stream", ACL_ERROR_RT_INVALID_HANDLE,
       [&] { return aclrtLaunchKernel(vadd_, 1, args, sizeof(args), huge_args.data()); }},
      {"kernel reads GM outside any allocation", ACL_ERROR_RT_AICORE_EXCEPTION,
       [&] {
         uint64_t bad[4] = {0x1000, 0x1000, 0x1000, 1024};
         aclError e = aclrtLaunchKernel(vadd_, 2, bad, sizeof(bad), stream_);
         return e != ACL_SUCCESS ? e : aclrtSynchronizeStream(stream_);
       }},
  });
  CheckStillWorks();
}

TEST_F(AclBadInputTest, ModelDataObjects) {
  const std::string fifo = dir_ + "/fifo", dir = dir_ + "/dir";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
  aclDataBuffer *buffer = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(buffer, nullptr);
  ACL_OK(aclDestroyDataBuffer(buffer));
  aclmdlDataset *dataset = aclmdlCreateDataset();
  ACL_OK(aclmdlDestroyDataset(dataset));
  aclmdlDesc *desc = aclmdlCreateDesc();
  ACL_OK(aclmdlDestroyDesc(desc));
  aclmdlDataset *live = aclmdlCreateDataset();
  aclDataBuffer *in_set = aclCreateDataBuffer(nullptr, 0);
  ACL_OK(aclmdlAddDatasetBuffer(live, in_set));
  ACL_OK(aclDestroyDataBuffer(in_set));  // destroyed while still in the dataset
  uint32_t id = 0;
  RunCases({
      {"destroy data buffer twice", ACL_ERROR_INVALID_PARAM, [&] { return aclDestroyDataBuffer(buffer); }},
      {"destroy dataset twice", ACL_ERROR_INVALID_PARAM, [&] { return aclmdlDestroyDataset(dataset); }},
      {"destroy model desc twice", ACL_ERROR_INVALID_PARAM, [&] { return aclmdlDestroyDesc(desc); }},
      {"update a destroyed data buffer", ACL_ERROR_INVALID_PARAM,
       [&] { return aclUpdateDataBuffer(buffer, nullptr, 0); }},
      {"add a destroyed buffer", ACL_ERROR_INVALID_PARAM, [&] { return aclmdlAddDatasetBuffer(live, buffer); }},
      {"add to a destroyed dataset", ACL_ERROR_INVALID_PARAM, [&] { return aclmdlAddDatasetBuffer(dataset, in_set); }},
      {"get desc into a destroyed desc", ACL_ERROR_INVALID_PARAM, [&] { return aclmdlGetDesc(desc, 1); }},
      {"destroy data buffer null", ACL_ERROR_INVALID_PARAM, [] { return aclDestroyDataBuffer(nullptr); }},
      {"model load file FIFO (would block)", ACL_ERROR_INVALID_FILE,
       [&] { return aclmdlLoadFromFile(fifo.c_str(), &id); }, "not a regular file"},
      {"model load file /dev/zero", ACL_ERROR_INVALID_FILE, [&] { return aclmdlLoadFromFile("/dev/zero", &id); }},
      {"model load file directory", ACL_ERROR_INVALID_FILE, [&] { return aclmdlLoadFromFile(dir.c_str(), &id); }},
      {"model load file missing", ACL_ERROR_INVALID_FILE, [&] { return aclmdlLoadFromFile("/nonexistent.om", &id); }},
      {"model load garbage", ACL_ERROR_PARSE_MODEL,
       [&] {
         std::vector<uint8_t> junk(64, 0x5a);
         return aclmdlLoadFromMem(junk.data(), junk.size(), &id);
       }},
      {"model unload unknown id", ACL_ERROR_INVALID_MODEL_ID, [] { return aclmdlUnload(987654); }},
      {"model execute unknown id", ACL_ERROR_INVALID_MODEL_ID, [&] { return aclmdlExecute(987654, live, live); }},
  });
  ACL_OK(aclmdlDestroyDataset(live));
  CheckStillWorks();
}

TEST(AclBadInputCount, AtLeastSeventyCases) {
  std::cout << "[bad-input] cases run: " << g_cases_run << std::endl;
  EXPECT_GE(g_cases_run, 70);
}

}  // namespace
}  // namespace asc_twin::rt::testing

// libascendc_runtime.so (ascend-twin): the host side of `<<<>>>`, ACLRT_LAUNCH_KERNEL and
// ICPU_RUN_KF launches in programs built by bisheng. See twin/runtime/launch/README.md.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "acl/acl.h"
#include "asc_twin/aicore_abi.h"
#include "asc_twin/host_launch.h"
#include "platform/platform_ascendc.h"
#include "twin/common/log/log.h"

namespace {

struct Binary {
  const void* data = nullptr;
  size_t size = 0;
  aclrtBinHandle handle = nullptr;
};

struct Kernel {
  size_t binary = 0;
  std::string name;
  std::vector<uint32_t> sizes;
  aclrtFuncHandle func = nullptr;
};

struct Registry {
  std::mutex mu;
  std::vector<Binary> binaries;
  std::unordered_map<const void*, Kernel> kernels;
};

Registry& Reg() {
  static Registry* r = new Registry;  // never destroyed: launches may run during exit
  return *r;
}

struct Config {
  uint32_t blocks;
  int64_t dyn_ub;
  void* stream;
};

thread_local std::vector<Config> g_configs;

// ICPU_SET_TILING_KEY: carried by every later direct launch of the process (CANN's CPU-debug
// g_tilingKey is one process-wide value too).
std::atomic<uint64_t> g_tiling_key{0};

// Why this thread's last launch was refused before reaching ACL (for the stream's record).
thread_local std::string g_refusal;

}  // namespace

// In libascendcl.so (twin-internal; see acl_device_api.cc).
extern "C" aclError __asc_twin_stream_report_failure(aclrtStream stream, aclError code, const char* message);

namespace {

// The cause itself is libascendcl's line just before (and stays for aclGetRecentErrMsg).
void PrintError(const char* what, const char* kernel, int err) {
  ASCEND_TWIN_LOGE(ascend_twin::log::kRuntime, "launch of kernel %s: %s failed with error %d", kernel ? kernel : "?",
                   what, err);
}

// Loads the kernel's binary (once per runtime) and resolves its function handle.
int Resolve(Registry& r, Kernel& k, bool reload) {
  Binary& b = r.binaries[k.binary];
  if (reload && b.handle != nullptr) {
    b.handle = nullptr;
    for (auto& entry : r.kernels) {
      if (entry.second.binary == k.binary) entry.second.func = nullptr;
    }
  }
  if (b.handle == nullptr) {
    aclrtBinHandle h = nullptr;
    aclError err = aclrtBinaryLoadFromData(b.data, b.size, nullptr, &h);
    if (err != ACL_SUCCESS) {
      PrintError("aclrtBinaryLoadFromData", k.name.c_str(), err);
      return err;
    }
    b.handle = h;
  }
  if (k.func == nullptr) {
    aclrtFuncHandle f = nullptr;
    aclError err = aclrtBinaryGetFunction(b.handle, k.name.c_str(), &f);
    if (err != ACL_SUCCESS) {
      PrintError("aclrtBinaryGetFunction", k.name.c_str(), err);
      return err;
    }
    k.func = f;
  }
  return ACL_SUCCESS;
}

// The UB bytes of one block on the current device's SoC (its ini), 0 if unknown.
uint64_t UbSize() {
  platform_ascendc::PlatformAscendC* p = platform_ascendc::PlatformAscendCManager::GetInstance();
  return p == nullptr ? 0 : std::strtoull(p->GetIniValue("AICoreSpec.ub_size"), nullptr, 10);
}

// `<<<numBlocks, dynUBufSize, stream>>>`: the dynamic UB must fit one block's UB.
int CheckDynamicUb(const char* kernel, int64_t dyn_ub) {
  if (dyn_ub == 0) return ACL_SUCCESS;
  const uint64_t ub = UbSize();
  if (dyn_ub > 0 && (ub == 0 || static_cast<uint64_t>(dyn_ub) <= ub)) return ACL_SUCCESS;
  g_refusal = std::string("launch of kernel ") + kernel + ": dynUBufSize=" + std::to_string(dyn_ub) +
              " is outside [0, " + std::to_string(ub) + "] (the UB of one block)";
  ASCEND_TWIN_LOGE(ascend_twin::log::kRuntime, "%s", g_refusal.c_str());
  return ACL_ERROR_INVALID_PARAM;
}

int Launch(const void* stub, uint32_t blocks, int64_t dyn_ub, void* stream, void** args, bool print) {
  Registry& r = Reg();
  aclrtFuncHandle func = nullptr;
  std::string name;
  std::vector<uint8_t> blob;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.kernels.find(stub);
    if (it == r.kernels.end()) {
      ASCEND_TWIN_LOGE(ascend_twin::log::kRuntime,
                       "launch: no kernel registered at %p (was its object built by bisheng?)", stub);
      return ACL_ERROR_INVALID_PARAM;
    }
    Kernel& k = it->second;
    name = k.name;
    int err = Resolve(r, k, false);
    if (err != ACL_SUCCESS) return err;
    func = k.func;
    size_t total = 0;
    for (uint32_t s : k.sizes) total += (s + 7u) / 8u * 8u;
    blob.assign(total, 0);
    size_t off = 0;
    for (size_t i = 0; i < k.sizes.size(); ++i) {
      std::memcpy(blob.data() + off, args[i], k.sizes[i]);
      off += (k.sizes[i] + 7u) / 8u * 8u;
    }
  }
  const int dyn_err = CheckDynamicUb(name.c_str(), dyn_ub);
  if (dyn_err != ACL_SUCCESS) return dyn_err;
  // The launch trailer (aicore_abi.h): the tiling key and the dynamic UB of this launch.
  const AscTwinLaunchTrailer trailer{ASC_TWIN_LAUNCH_TRAILER_MAGIC, g_tiling_key.load(std::memory_order_relaxed),
                                     static_cast<uint64_t>(dyn_ub), 0u};
  const size_t at = blob.size();
  blob.resize(at + sizeof(trailer));
  std::memcpy(blob.data() + at, &trailer, sizeof(trailer));
  aclError err = aclrtLaunchKernel(func, blocks, blob.data(), blob.size(), stream);
  if (err == ACL_ERROR_RT_INVALID_HANDLE) {  // the runtime was finalized and initialized again
    std::lock_guard<std::mutex> lock(r.mu);
    Kernel& k = r.kernels[stub];
    if (Resolve(r, k, true) == ACL_SUCCESS) {
      err = aclrtLaunchKernel(k.func, blocks, blob.data(), blob.size(), stream);
    }
  }
  if (err != ACL_SUCCESS && print) PrintError("aclrtLaunchKernel", name.c_str(), err);
  return err;
}

std::once_flag g_cpu_init;
int g_cpu_init_err = 0;

// CPU-debug style code calls no ACL itself: bring up device 0 on first use (ACL initializes
// itself then; no aclInit here, so the program's own aclInit still succeeds).
int EnsureCpuDebugDevice() {
  std::call_once(g_cpu_init, [] {
    const aclError err = aclrtSetDevice(0);
    if (err != ACL_SUCCESS) g_cpu_init_err = err;
  });
  if (g_cpu_init_err == 0) {
    int32_t dev = -1;
    if (aclrtGetDevice(&dev) != ACL_SUCCESS) return aclrtSetDevice(0);  // a new host thread
  }
  return g_cpu_init_err;
}

}  // namespace

extern "C" {

void __asc_twin_register_binary(const void* data, size_t size, const AscTwinHostKernel* kernels, size_t count) {
  Registry& r = Reg();
  std::lock_guard<std::mutex> lock(r.mu);
  r.binaries.push_back(Binary{data, size, nullptr});
  for (size_t i = 0; i < count; ++i) {
    Kernel k;
    k.binary = r.binaries.size() - 1;
    k.name = kernels[i].name;
    k.sizes.assign(kernels[i].param_sizes, kernels[i].param_sizes + kernels[i].param_count);
    r.kernels[kernels[i].stub] = std::move(k);
  }
}

int __asc_twin_push_launch_config(uint32_t blocks, int64_t dyn_ub_size, void* stream) {
  g_configs.push_back(Config{blocks, dyn_ub_size, stream});
  return 0;
}

void __asc_twin_set_tiling_key(uint64_t key) { g_tiling_key.store(key, std::memory_order_relaxed); }

int __cudaPopCallConfiguration(void* grid, void* block, size_t* shmem, void** stream) {
  Config c{0, 0, nullptr};
  if (!g_configs.empty()) {
    c = g_configs.back();
    g_configs.pop_back();
  }
  const uint32_t g[3] = {c.blocks, 1, 1};
  const uint32_t b[3] = {1, 1, 1};
  std::memcpy(grid, g, sizeof(g));
  std::memcpy(block, b, sizeof(b));
  *shmem = static_cast<size_t>(c.dyn_ub);  // CUDA's dynamic shared memory slot carries the dynamic UB
  *stream = c.stream;
  return 0;
}

struct AscTwinDim3Abi {
  uint32_t x, y, z;
};

// `<<<>>>`: the launch expression returns nothing the user can check, so a launch that cannot
// start is also recorded on its stream; the next aclrtSynchronizeStream returns the error.
int cudaLaunchKernel(const void* func, AscTwinDim3Abi grid, AscTwinDim3Abi, void** args, size_t shmem, void* stream) {
  g_refusal.clear();
  const int err = Launch(func, grid.x, static_cast<int64_t>(shmem), stream, args, true);
  if (err != ACL_SUCCESS) {
    const char* msg = g_refusal.empty() ? aclGetRecentErrMsg() : g_refusal.c_str();
    __asc_twin_stream_report_failure(stream, err, msg != nullptr && *msg != '\0' ? msg : "<<<>>> launch failed");
  }
  return err;
}

int __asc_twin_launch(const void* stub, uint32_t blocks, void* stream, void** args) {
  return Launch(stub, blocks, 0, stream, args, true);
}

int __asc_twin_run_sync(const void* stub, uint32_t blocks, void** args) {
  int err = EnsureCpuDebugDevice();
  if (err != 0) {
    PrintError("ICPU_RUN_KF: bringing up device 0", nullptr, err);
    return err;
  }
  err = Launch(stub, blocks, 0, nullptr, args, true);
  if (err != ACL_SUCCESS) return err;
  err = aclrtSynchronizeStream(nullptr);
  if (err != ACL_SUCCESS) {
    const char* msg = aclGetRecentErrMsg();
    std::fprintf(stderr, "[ERROR] ICPU_RUN_KF: %s\n", msg ? msg : "kernel failed");
  }
  return err;
}

void* __asc_twin_gm_alloc(size_t size) {
  if (EnsureCpuDebugDevice() != 0) return nullptr;
  void* p = nullptr;
  if (aclrtMalloc(&p, size == 0 ? 1 : size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return nullptr;
  return p;
}

void __asc_twin_gm_free(void* ptr) {
  if (ptr != nullptr) aclrtFree(ptr);
}

}  // extern "C"

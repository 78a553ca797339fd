// A miniature stand-in for the runtime's launch path, so the Ascend C twin
// can be tested before twin/runtime exists: device allocations with a range
// checker, argument blobs in the ABI's 8-byte slot layout, and a launch that
// runs every block on its own thread with its own UB arena.
#ifndef ASC_TWIN_TESTS_LAUNCH_HARNESS_H_
#define ASC_TWIN_TESTS_LAUNCH_HARNESS_H_

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "asc_twin/aicore_abi.h"

namespace asc_twin_test {

// Device memory: every buffer is a separate allocation the checker knows.
class DeviceMemory {
 public:
  ~DeviceMemory() {
    for (auto& kv : allocs_) std::free(reinterpret_cast<void*>(kv.first));
  }
  uint8_t* Alloc(size_t bytes) {
    void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    std::lock_guard<std::mutex> lock(mu_);
    allocs_[reinterpret_cast<uintptr_t>(p)] = bytes;
    return static_cast<uint8_t*>(p);
  }
  template <typename T>
  T* AllocOf(size_t n) {
    return reinterpret_cast<T*>(Alloc(n * sizeof(T)));
  }
  static int Check(const void* ctx, const void* addr, uint64_t len) {
    const DeviceMemory* self = static_cast<const DeviceMemory*>(ctx);
    const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
    std::lock_guard<std::mutex> lock(self->mu_);
    auto it = self->allocs_.upper_bound(a);
    if (it == self->allocs_.begin()) return 0;
    --it;
    return a >= it->first && len <= it->second && a - it->first <= it->second - len;
  }

 private:
  mutable std::mutex mu_;
  std::map<uintptr_t, size_t> allocs_;
};

// Packs kernel arguments: each starts at the next multiple of 8 bytes.
class Args {
 public:
  template <typename T>
  Args& Add(const T& v) {
    // sizeof(T) is the argument's own size, also when the argument is a pointer (a GM address).
    const size_t off = blob_.size();
    blob_.resize(off + (sizeof(T) + 7) / 8 * 8, 0);  // NOLINT(bugprone-sizeof-expression): see above
    std::memcpy(blob_.data() + off, &v, sizeof(T));  // NOLINT(bugprone-sizeof-expression): see above
    return *this;
  }
  const void* data() const { return blob_.data(); }
  size_t size() const { return blob_.size(); }

 private:
  std::vector<uint8_t> blob_;
};

struct LaunchResult {
  std::vector<int> status;  // per block
  std::vector<std::string> errors;
  bool ok() const {
    for (int s : status)
      if (s != 0) return false;
    return true;
  }
  std::string FirstError() const {
    for (size_t i = 0; i < status.size(); ++i)
      if (status[i] != 0) return errors[i];
    return "";
  }
};

struct Soc {
  const char* name;
  uint32_t npu_arch;
  uint64_t ub_size;
};
constexpr Soc kAscend910B1{"Ascend910B1", 2201, 196608};

// The harness's block slot (block_slot_tpoff). Offered to the odd blocks of every
// launch only, so each kernel test runs both ways a kernel can reach its block state: through
// a host's slot and through its own thread_local (a host that offers none).
#if ASC_TWIN_BLOCK_SLOT_SUPPORTED
ASC_TWIN_DEFINE_BLOCK_SLOT(g_harness_block_slot);
#endif

// Runs block_num blocks concurrently, one thread each.
inline LaunchResult Launch(AscTwinEntryFn entry, const char* kernel, uint32_t block_num, const Args& args,
                           DeviceMemory& mem, const Soc& soc = kAscend910B1) {
  LaunchResult r;
  r.status.assign(block_num, -1);
  r.errors.assign(block_num, "");
  std::vector<std::thread> threads;
  for (uint32_t b = 0; b < block_num; ++b) {
    threads.emplace_back([&, b] {
      std::unique_ptr<uint8_t, decltype(&std::free)> ub(static_cast<uint8_t*>(std::aligned_alloc(4096, soc.ub_size)),
                                                        &std::free);
      // Stale data, as on the NPU: kernels must not rely on zeroed UB.
      std::memset(ub.get(), 0xA5, soc.ub_size);
      AscTwinBlockEnv env;
      AscTwinEnvInit(&env);
      env.block_idx = b;
      env.block_num = block_num;
      env.npu_arch = soc.npu_arch;
      env.mem[ASC_TWIN_MEM_UB].base = ub.get();
      env.mem[ASC_TWIN_MEM_UB].size = soc.ub_size;
      env.gm_check = &DeviceMemory::Check;
      env.gm_ctx = &mem;
      env.soc_version = soc.name;
      env.kernel_name = kernel;
#if ASC_TWIN_BLOCK_SLOT_SUPPORTED
      if (b % 2 == 1) AscTwinEnvUseBlockSlot(&env, &g_harness_block_slot);
#endif
      char err[512] = "";
      r.status[b] = entry(&env, args.data(), args.size(), err, sizeof(err));
      r.errors[b] = err;
#if ASC_TWIN_BLOCK_SLOT_SUPPORTED
      if (g_harness_block_slot != nullptr) {  // the entry must give the slot its old value back
        r.status[b] = -2;
        r.errors[b] = "the kernel entry left the host's block slot set";
      }
#endif
    });
  }
  for (auto& t : threads) t.join();
  return r;
}

// The seed for this test process: $ASC_TWIN_SEED or random; printed once.
inline uint64_t Seed() {
  static const uint64_t seed = [] {
    const char* s = std::getenv("ASC_TWIN_SEED");
    const uint64_t v = s ? std::strtoull(s, nullptr, 10) : std::random_device{}();
    std::printf("[asc twin tests] seed = %llu (set ASC_TWIN_SEED to repeat)\n", static_cast<unsigned long long>(v));
    return v;
  }();
  return seed;
}

}  // namespace asc_twin_test

#endif  // ASC_TWIN_TESTS_LAUNCH_HARNESS_H_

// CPU-debug style kernel invocation (CANN: tikicpulib, `find_package(tikicpulib)`), on the CPU
// twin. CANN compiles such a program with the host compiler and runs each block in a forked
// process; here bisheng builds it like any other program and the blocks run on the twin
// runtime's threads, so the same code serves both styles:
//
//   uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);   // device memory (aclrtMalloc), usable
//   AscendC::SetKernelMode(KernelMode::AIV_MODE);     //   from the host directly
//   ICPU_RUN_KF(add_custom, numBlocks, x, y, z);      // runs all blocks and waits
//   AscendC::GmFree(x);
//
// Built by bisheng, ICPU_RUN_KF brings up ACL and device 0 on first use (CPU-debug code calls no
// ACL itself), launches on the runtime and waits; built by a plain C++ compiler it runs the
// blocks on host threads itself. Either way a trap prints
// `[ERROR] ICPU_RUN_KF: kernel <name> block <i>: <cause>`.
// ICPU_SET_TILING_KEY(key) sets the tiling key (CANN: g_tilingKey) that every later launch of
// the process carries and TILING_KEY_IS compares, in both builds.
#ifndef ASC_TWIN_TIKICPULIB_H_
#define ASC_TWIN_TIKICPULIB_H_

#include <cstddef>
#include <cstdint>

#include "kernel_operator.h"
#include "asc_twin/host_launch.h"

enum KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1 };

namespace AscendC {
inline void SetKernelMode(KernelMode) {}
inline void* GmAlloc(size_t size) { return __asc_twin_gm_alloc(size); }
inline void GmFree(void* ptr) { __asc_twin_gm_free(ptr); }
}  // namespace AscendC

#if defined(__CUDA__) && !defined(__CUDA_ARCH__)
// Built by bisheng: the kernel is in the device binary; run it through the twin runtime.
#define ICPU_RUN_KF(func, numBlocks, ...) \
  ((void)::AscendC::twin_host::MakeLauncher(&func).RunSync((numBlocks), ##__VA_ARGS__))
#else
// Built by a plain C++ compiler (CMake + tikicpulib, as CANN's CPU-debug builds are): the kernel
// is an ordinary function here; run its blocks on host threads through the same entry shim a
// device binary uses (own UB arena per thread, no GM range checks).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <tuple>
#include <vector>

#include "asc_twin/kernel_entry.h"

namespace AscendC {
namespace twin_cpu {

// ICPU_SET_TILING_KEY's value for this process (CANN: g_tilingKey).
inline uint64_t& TilingKey() {
  static uint64_t key = 0;
  return key;
}

template <typename... P, typename Tuple, size_t... I>
inline void PackArgs(uint8_t* blob, Tuple& values, std::index_sequence<I...>) {
  ((std::memcpy(blob + twin::ArgLayout<P...>::template Offset<I>(), &std::get<I>(values), sizeof(P))), ...);
}

// L1, L0A, L0B, L0C, BiasTable, Fixpipe buffer of a CPU-debug block: twin/platform/Ascend910B1.ini's
// [AICoreSpec] (the CPU-debug build selects no SoC; ASC_TWIN_CPU_UB_SIZE sets the UB's).
constexpr uint64_t kCpuDebugCubeBytes[ASC_TWIN_MEM_COUNT] = {0, 524288, 65536, 65536, 131072, 1024, 2048};

template <typename... P, typename... A>
inline int RunBlocks(void (*fn)(P...), const char* name, uint32_t numBlocks, A&&... a) {
  static_assert(sizeof...(A) == sizeof...(P), "ICPU_RUN_KF: the argument count does not match the kernel");
  std::tuple<std::remove_cv_t<P>...> values(twin_host::ToParam<P>(std::forward<A>(a))...);
  std::vector<uint8_t> blob(twin::ArgLayout<P...>::kSize + sizeof(AscTwinLaunchTrailer), 0);
  PackArgs<P...>(blob.data(), values, std::index_sequence_for<P...>{});
  const AscTwinLaunchTrailer trailer{ASC_TWIN_LAUNCH_TRAILER_MAGIC, TilingKey(), 0u, 0u};
  std::memcpy(blob.data() + twin::ArgLayout<P...>::kSize, &trailer, sizeof(trailer));
  const char* ub_env = std::getenv("ASC_TWIN_CPU_UB_SIZE");
  const uint64_t ub_size = ub_env != nullptr ? std::strtoull(ub_env, nullptr, 10) : 196608u;
  unsigned threads = std::thread::hardware_concurrency();
  threads = threads == 0 ? 1 : (threads > numBlocks ? numBlocks : threads);
  std::vector<int> failed(numBlocks, 0);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      void* ub = std::aligned_alloc(4096, (ub_size + 4095) / 4096 * 4096);
      // The cube's memories too (a CPU-debug kernel runs as one block that sees every local
      // memory, as the runtime runs a kernel of undeclared type), at Ascend910B1's ini figures.
      uint8_t* cube[ASC_TWIN_MEM_COUNT] = {};
      for (uint32_t m = ASC_TWIN_MEM_L1; m < ASC_TWIN_MEM_COUNT; ++m) {
        cube[m] = static_cast<uint8_t*>(std::aligned_alloc(4096, (kCpuDebugCubeBytes[m] + 4095) / 4096 * 4096));
      }
      for (uint32_t b = t; b < numBlocks; b += threads) {
#ifdef __NPU_ARCH__
        const uint32_t arch = __NPU_ARCH__;
#else
        const uint32_t arch = 0;
#endif
        AscTwinBlockEnv env;
        AscTwinEnvInit(&env);
        env.block_idx = b;
        env.block_num = numBlocks;
        env.npu_arch = arch;
        env.mem[ASC_TWIN_MEM_UB].base = static_cast<uint8_t*>(ub);
        env.mem[ASC_TWIN_MEM_UB].size = ub_size;
        for (uint32_t m = ASC_TWIN_MEM_L1; m < ASC_TWIN_MEM_COUNT; ++m) {
          env.mem[m].base = cube[m];
          env.mem[m].size = cube[m] != nullptr ? kCpuDebugCubeBytes[m] : 0;
        }
        env.soc_version = "cpu-debug";
        env.kernel_name = name;
#if ASC_TWIN_BLOCK_SLOT_SUPPORTED
        // The block slot, as the runtime offers it (twin/asc/README.md): the kernel's API calls
        // then reach the block state the same way in both builds.
        ASC_TWIN_DEFINE_BLOCK_SLOT(block_slot);
        AscTwinEnvUseBlockSlot(&env, &block_slot);
#endif
        char err[512] = "";
        if (twin::RunKernelBlock(fn, &env, blob.data(), blob.size(), err, sizeof(err)) != 0) {
          std::fprintf(stderr, "[ERROR] ICPU_RUN_KF: kernel %s block %u: %s\n", name, b, err);
          failed[b] = 1;
        }
      }
      std::free(ub);
      for (uint8_t* p : cube) std::free(p);
    });
  }
  for (auto& th : pool) th.join();
  for (int f : failed) {
    if (f) return 1;
  }
  return 0;
}

}  // namespace twin_cpu
}  // namespace AscendC

#define ICPU_RUN_KF(func, numBlocks, ...) \
  ((void)::AscendC::twin_cpu::RunBlocks(&func, #func, (numBlocks), ##__VA_ARGS__))
#endif
#if defined(__CUDA__) && !defined(__CUDA_ARCH__)
#define ICPU_SET_TILING_KEY(key) __asc_twin_set_tiling_key(static_cast<uint64_t>(key))
#else
#define ICPU_SET_TILING_KEY(key) ((void)(::AscendC::twin_cpu::TilingKey() = static_cast<uint64_t>(key)))
#endif

#endif  // ASC_TWIN_TIKICPULIB_H_

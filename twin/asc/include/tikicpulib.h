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
// ICPU_RUN_KF brings up ACL and device 0 on first use (CPU-debug code calls no ACL itself) and
// prints a trap as `[ERROR] ICPU_RUN_KF: kernel <name> block <i>: <cause>`.
// ICPU_SET_TILING_KEY has no effect: there is no tiling key in a direct launch on the twin.
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

#define ICPU_RUN_KF(func, numBlocks, ...) \
  ((void)::AscendC::twin_host::MakeLauncher(&func).RunSync((numBlocks), ##__VA_ARGS__))
#define ICPU_SET_TILING_KEY(key) ((void)(key))

#endif  // ASC_TWIN_TIKICPULIB_H_

// Qualifier keywords and kernel macros of Ascend C, for the host CPU.
// Address-space and core qualifiers compile to nothing (as in CANN's CPU
// debug stub_def.h); `__global__` keeps a clang annotation so the bisheng
// driver can find kernels in the AST.
#ifndef ASC_TWIN_KERNEL_MACROS_H_
#define ASC_TWIN_KERNEL_MACROS_H_

#include <cstdint>

#ifndef __global__
#if defined(__clang__)
#define __global__ __attribute__((annotate("asc_twin_global")))
#else
#define __global__
#endif
#endif

// Code written for bisheng's device pass may spell the function qualifier in its own syntax,
// `#define __aicore__ [aicore]` (outside CPU-debug builds): with `aicore` standing for `[ ]`,
// `[aicore]` reads as the empty C++ attribute `[[ ]]`, so such code compiles unchanged. The one
// cost: `aicore` is not free as an identifier (on the NPU it is the compiler's keyword).
#ifndef aicore
#define aicore []
#endif
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wcompound-token-split-by-macro"
#endif

#ifndef __aicore__
#define __aicore__
#endif
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __mix__
#define __mix__(cube, vec)
#endif
#ifndef __schedmode__
#define __schedmode__(mode)
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif
#ifndef __ssbuf__
#define __ssbuf__
#endif
#ifndef __inout_pipe__
#define __inout_pipe__(pipe)
#endif
#ifndef __in_pipe__
#define __in_pipe__(pipe)
#endif
#ifndef __out_pipe__
#define __out_pipe__(pipe)
#endif
#ifndef __sync_alias__
#define __sync_alias__
#endif

// Branch hints, as CANN's kernel headers define them for kernel code (a user's own wins).
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

// bisheng passes -D__NPU_ARCH__=<NpuArch>; derive the older __CCE_AICORE__.
#if defined(__NPU_ARCH__) && !defined(__CCE_AICORE__)
#if __NPU_ARCH__ == 2201
#define __CCE_AICORE__ 220
#elif __NPU_ARCH__ == 2002
#define __CCE_AICORE__ 200
#elif __NPU_ARCH__ == 3002
#define __CCE_AICORE__ 300
#elif __NPU_ARCH__ == 3510
#define __CCE_AICORE__ 310
#elif __NPU_ARCH__ == 1001
#define __CCE_AICORE__ 100
#endif
#endif

#define GM_ADDR __gm__ uint8_t*
#define UB_ADDR __ubuf__ uint8_t*

// Compile-time feature hints for bisheng's pre-pass; empty here as in CANN.
#define KERNEL_TASK_TYPE_DEFAULT(value)
#define KERNEL_TASK_TYPE(key, value)

#endif  // ASC_TWIN_KERNEL_MACROS_H_

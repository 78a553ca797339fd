// Force-included by bisheng (ascend-twin) in the HOST pass of every source, which clang compiles
// in CUDA host mode (`-x cuda --cuda-host-only -nocudainc -nocudalib`) so that it parses
// `kernel<<<numBlocks, l2ctrl, stream>>>(args...)` itself: templates, namespaces and
// diagnostics with the user's file:line come from clang. Not for users to include.
//
// - __global__ is CUDA's `global` attribute here (the device pass keeps the annotation of
//   kernel_macros.h): host code sees a kernel as its launch stub.
// - `<<<a, b, c>>>` becomes __cudaPushCallConfiguration(a, b, c) (clang looks the name up and
//   resolves the call like any other) followed by the stub, which calls
//   __cudaPopCallConfiguration and cudaLaunchKernel (stub address, grid, block, void** args,
//   shared memory, stream); libascendc_runtime.so defines both and launches through ACL.
// - Everything declared after this header up to the first kernel is implicitly __host__
//   __device__ (clang's force_cuda_host_device pragma), so kernel bodies may call the twin's
//   functions, the C++ library and the user's helpers; after it, `__aicore__` functions are
//   (asc_twin/host_kernel_attrs.h: so kernels may be declared and defined later).
#ifndef ASC_TWIN_HOST_PRELUDE_H_
#define ASC_TWIN_HOST_PRELUDE_H_

#if !defined(__CUDA__) || defined(__CUDA_ARCH__)
#error "asc_twin/host_prelude.h is for bisheng's host pass only"
#endif

// Declared before the pragma, so later redeclarations agree: the allocation functions and
// std::terminate (clang and <bits/c++config.h> declare them first) and the x86 intrinsics
// clang knows as builtins. Host-only, they are still callable from helper functions.
#include <exception>
#include <new>
#include <type_traits>
#include <typeinfo>
#include <x86intrin.h>
#include <stddef.h>
#include <stdint.h>

#include "asc_twin/host_launch.h"

// __global__ and __aicore__ come from asc_twin/host_kernel_attrs.h, which bisheng force-includes
// after this header and the Ascend C prefix (not from here: a PCH does not keep the
// push_macro stack it sets up).

// The grid/block type of the launch; only .x (numBlocks) is used.
struct AscTwinDim3 {
  uint32_t x, y, z;
};

// Slot 2 of `<<<numBlocks, slot2, stream>>>`: current CANN documents it as the dynamic UB size
// in bytes (dynUBufSize, default 0), older samples as the reserved `l2ctrl` pointer and pass
// nullptr. An integer is the dynamic UB size (checked at launch: 0 up to the SoC's UB size); a
// pointer (nullptr, an l2ctrl address) reserves none.
struct AscTwinLaunchSlot2 {
  int64_t dyn_ub_size = 0;
  template <typename T>
  constexpr AscTwinLaunchSlot2(const T& v) {  // NOLINT: implicit on purpose
    static_assert(std::is_integral<T>::value || std::is_enum<T>::value || std::is_pointer<T>::value ||
                      std::is_null_pointer<T>::value,
                  "<<<numBlocks, dynUBufSize, stream>>>: the second argument is the dynamic UB size in "
                  "bytes (an integer) or the l2ctrl pointer (nullptr)");
    if constexpr (std::is_integral<T>::value || std::is_enum<T>::value) dyn_ub_size = static_cast<int64_t>(v);
  }
};

inline int __cudaPushCallConfiguration(uint32_t numBlocks, AscTwinLaunchSlot2 slot2 = 0, void* stream = nullptr) {
  return __asc_twin_push_launch_config(numBlocks, slot2.dyn_ub_size, stream);
}

extern "C" int __cudaPopCallConfiguration(AscTwinDim3* grid, AscTwinDim3* block, size_t* shmem, void** stream);
extern "C" int cudaLaunchKernel(const void* func, AscTwinDim3 grid, AscTwinDim3 block, void** args, size_t shmem,
                                void* stream);

#pragma clang force_cuda_host_device begin

#endif  // ASC_TWIN_HOST_PRELUDE_H_

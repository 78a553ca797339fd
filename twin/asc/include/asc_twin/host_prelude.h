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
// - Everything declared after this header is implicitly __host__ __device__ (clang's
//   force_cuda_host_device pragma), so kernel bodies may call any function, as Ascend C code
//   does (a kernel body itself may call any function declared after it).
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
#include <typeinfo>
#include <x86intrin.h>
#include <stddef.h>
#include <stdint.h>

#include "asc_twin/host_launch.h"

#define __global__ __attribute__((global))

// The grid/block type of the launch; only .x (numBlocks) is used.
struct AscTwinDim3 {
  uint32_t x, y, z;
};

// Slot 2 of `<<<numBlocks, slot2, stream>>>`: CANN calls it l2ctrl (reserved) or the dynamic UB
// size; code passes nullptr or 0. Anything is accepted and ignored.
struct AscTwinLaunchSlot2 {
  template <typename T>
  constexpr AscTwinLaunchSlot2(const T&) {}  // NOLINT: implicit on purpose
};

inline int __cudaPushCallConfiguration(uint32_t numBlocks, AscTwinLaunchSlot2, void* stream = nullptr) {
  return __asc_twin_push_launch_config(numBlocks, stream);
}

extern "C" int __cudaPopCallConfiguration(AscTwinDim3* grid, AscTwinDim3* block, size_t* shmem,
                                          void** stream);
extern "C" int cudaLaunchKernel(const void* func, AscTwinDim3 grid, AscTwinDim3 block, void** args,
                                size_t shmem, void* stream);

#pragma clang force_cuda_host_device begin

#endif  // ASC_TWIN_HOST_PRELUDE_H_

// The kernel qualifiers of bisheng's host pass, force-included after asc_twin/host_prelude.h
// (and after the Ascend C prefix header when bisheng uses one): a PCH would not keep the
// `#pragma push_macro` stacks below, so this header is never precompiled.
//
// The prelude makes every function declared after it implicitly __host__ __device__ (clang's
// force_cuda_host_device pragma), so kernel bodies may call the twin's and the user's
// functions. A kernel must not get those implicit attributes: clang refuses to merge them with
// `global` when a kernel is declared first and defined later (or declared again), which CANN
// code does. So, in the host pass:
// - the first `__global__` of the file ends the pragma (all later functions are host code
//   unless marked `__aicore__`, as CANN requires of every function a kernel calls);
// - `__aicore__` is __host__ __device__ on a function, and nothing on a kernel. The
//   preprocessor has no state but `#pragma push_macro`/`pop_macro`, so both macros walk
//   stacks of definitions (512 pairs each) between two states:
//     function state: `__aicore__` = __host__ __device__, `__global__` = enter the kernel state;
//     kernel state:   `__aicore__` = nothing, back to the function state; `__global__` = stay.
//   A kernel declaration `__global__ ... __aicore__` enters and leaves; one without `__aicore__`
//   (`__global__ __mix__(1, 2) void k(...)`, `__global__ __vector__ void k(...)`) stays in the
//   kernel state, so the next kernel's `__global__` changes nothing and its `__aicore__` leaves.
//   An `__aicore__` function right after such kernels is the one case left: it leaves the
//   kernel state and is host code itself.
#ifndef ASC_TWIN_HOST_KERNEL_ATTRS_H_
#define ASC_TWIN_HOST_KERNEL_ATTRS_H_

#define ASC_TWIN_AICORE_DEVICE_FN __attribute__((host)) __attribute__((device))
#define ASC_TWIN_AICORE_ON_KERNEL _Pragma("pop_macro(\"__aicore__\")") _Pragma("pop_macro(\"__global__\")")
#define ASC_TWIN_GLOBAL_ENTER \
  _Pragma("pop_macro(\"__aicore__\")") _Pragma("pop_macro(\"__global__\")") __attribute__((global))
#define ASC_TWIN_GLOBAL_IN_KERNEL __attribute__((global))

#undef __aicore__
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#include "asc_twin/kernel_attr_pairs.h"
#define __aicore__ ASC_TWIN_AICORE_DEVICE_FN

// The first kernel declaration enters the kernel state and ends the prelude's
// force_cuda_host_device region.
#pragma push_macro("__global__")
#undef __global__
#define __global__ _Pragma("clang force_cuda_host_device end") ASC_TWIN_GLOBAL_ENTER

#endif  // ASC_TWIN_HOST_KERNEL_ATTRS_H_

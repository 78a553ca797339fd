// The kernel qualifiers of bisheng's host pass, force-included after asc_twin/host_prelude.h
// (and after the Ascend C prefix header when bisheng uses one): a PCH would not keep the
// `#pragma push_macro` stack below, so this header is never precompiled.
//
// The prelude makes every function declared after it implicitly __host__ __device__ (clang's
// force_cuda_host_device pragma), so kernel bodies may call the twin's and the user's
// functions. A kernel must not get those implicit attributes: clang refuses to merge them with
// `global` when a kernel is declared first and defined later (or declared again), which CANN
// code does. So, in the host pass:
// - the first `__global__` of the file ends the pragma (all later functions are host code
//   unless marked `__aicore__`, as CANN requires of every function a kernel calls);
// - `__aicore__` is __host__ __device__ on a function, and nothing on a kernel: `__global__`
//   switches `__aicore__` to a version that only switches it back (a stack of definitions,
//   `#pragma push_macro`/`pop_macro`, two entries per kernel declaration; 512 kernel
//   declarations per file). A kernel written `__global__` without `__aicore__` leaves the
//   switch to the next `__aicore__` function, which then is host code.
#ifndef ASC_TWIN_HOST_KERNEL_ATTRS_H_
#define ASC_TWIN_HOST_KERNEL_ATTRS_H_

#define ASC_TWIN_AICORE_DEVICE_FN __attribute__((host)) __attribute__((device))
#define ASC_TWIN_AICORE_ON_KERNEL _Pragma("pop_macro(\"__aicore__\")")

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

// Later kernel declarations: switch __aicore__ for this declaration only.
#undef __global__
#define __global__ _Pragma("pop_macro(\"__aicore__\")") __attribute__((global))
#pragma push_macro("__global__")
#undef __global__
// The first kernel declaration also ends the prelude's force_cuda_host_device region.
#define __global__                                                                 \
  _Pragma("clang force_cuda_host_device end") _Pragma("pop_macro(\"__global__\")") \
      _Pragma("pop_macro(\"__aicore__\")") __attribute__((global))

#endif  // ASC_TWIN_HOST_KERNEL_ATTRS_H_

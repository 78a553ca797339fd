// The tiling of MatmulLeakyReluCustom, passed to the kernel by value: the Matmul API's
// TCubeTiling (from matmul_tiling::MultiCoreMatmulTiling on the host) and the slope.
#ifndef OPS_MATMUL_LEAKYRELU_CUSTOM_KERNEL_MATMUL_LEAKYRELU_TILING_H_
#define OPS_MATMUL_LEAKYRELU_CUSTOM_KERNEL_MATMUL_LEAKYRELU_TILING_H_

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"

struct MatmulLeakyReluTiling {
  TCubeTiling cubeTiling;
  float negativeSlope;
  uint32_t reserved;  // keeps the struct a whole number of 8-byte launch slots
};

#endif  // OPS_MATMUL_LEAKYRELU_CUSTOM_KERNEL_MATMUL_LEAKYRELU_TILING_H_

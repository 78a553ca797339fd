/*
 * Tiling of leaky_relu_custom, computed by the compile holder and passed by value as the
 * kernel's last parameter (16 bytes: two 8-byte argument slots, packed little-endian by
 * python/plugin/leaky_relu_custom_holder.py as struct "<IIfI" — keep both in sync).
 */
#ifndef OPS_LEAKY_RELU_CUSTOM_KERNEL_LEAKY_RELU_TILING_H_
#define OPS_LEAKY_RELU_CUSTOM_KERNEL_LEAKY_RELU_TILING_H_

#include <cstdint>

struct LeakyReluTiling {
  uint32_t blockLength;  // elements per block (a multiple of tileLength); the last block may hold fewer
  uint32_t tileLength;   // elements per UB tile (32-byte multiple for both dtypes)
  float negativeSlope;   // the operator's attribute
  uint32_t blockNum;     // launched blocks, so a block can check the host's arithmetic
};

static_assert(sizeof(LeakyReluTiling) == 16, "the holder packs LeakyReluTiling as 16 bytes");

#endif  // OPS_LEAKY_RELU_CUSTOM_KERNEL_LEAKY_RELU_TILING_H_

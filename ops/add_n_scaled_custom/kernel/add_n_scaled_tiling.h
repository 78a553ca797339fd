/*
 * Tiling of add_n_scaled_custom, computed by the holder's compile per shape and passed by value
 * as the kernel's last parameter (16 bytes: two 8-byte argument slots, packed little-endian as
 * struct "<IIfI" by python/plugin/add_n_scaled_custom_holder.py — keep both in sync).
 */
#ifndef OPS_ADD_N_SCALED_CUSTOM_KERNEL_ADD_N_SCALED_TILING_H_
#define OPS_ADD_N_SCALED_CUSTOM_KERNEL_ADD_N_SCALED_TILING_H_

#include <cstdint>

struct AddNScaledTiling {
  uint32_t blockLength;  // elements per block (a multiple of tileLength); the last block may hold fewer
  uint32_t tileLength;   // elements per UB tile (a 32-byte multiple)
  float scale;           // the operator's attribute
  uint32_t inputNum;     // entries of the input address table
};

static_assert(sizeof(AddNScaledTiling) == 16, "the holder packs AddNScaledTiling as 16 bytes");

#endif  // OPS_ADD_N_SCALED_CUSTOM_KERNEL_ADD_N_SCALED_TILING_H_

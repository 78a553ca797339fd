// The tiling of RmsNormCustom, passed to the kernel by value. The host builds the same bytes with
// BEGIN_TILING_DATA_DEF(RmsNormCustomTilingData) (proto/rms_norm_custom_tiling_data.h) from the
// one field list below, so the two layouts cannot drift apart.
#ifndef OPS_RMS_NORM_CUSTOM_KERNEL_RMS_NORM_CUSTOM_TILING_H_
#define OPS_RMS_NORM_CUSTOM_KERNEL_RMS_NORM_CUSTOM_TILING_H_

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"

// The scalar fields, in layout order; the two RmsNormTiling structs follow them.
// clang-format keeps an X-macro list on one line; one field per line is what a reader needs.
// clang-format off
#define RMS_NORM_CUSTOM_TILING_FIELDS(F)                                                        \
  F(uint32_t, totalRows)      /* B * S: the rows normalised over their last axis */            \
  F(uint32_t, blockNum)       /* launched blocks (the launch's block_dim) */                   \
  F(uint32_t, blockRows)      /* rows of every block but the last, a multiple of tileRows */   \
  F(uint32_t, tileRows)       /* rows of one UB tile */                                        \
  F(uint32_t, tailTileRows)   /* rows of the last block's last tile (tailTiling's) */          \
  F(uint32_t, hLength)        /* H, the normalised axis */                                     \
  F(uint32_t, hAligned)       /* H rounded up to 32 bytes: a row's length in the UB */         \
  F(uint32_t, tmpBufferBytes) /* RmsNorm's sharedTmpBuffer */                                  \
  F(float, epsilon)           /* the operator's attribute */                                   \
  F(uint32_t, reserved)       /* keeps the struct a whole number of 8-byte launch slots */
// clang-format on

struct RmsNormCustomTiling {
#define RMS_NORM_CUSTOM_STRUCT_FIELD(type, name) type name;
  RMS_NORM_CUSTOM_TILING_FIELDS(RMS_NORM_CUSTOM_STRUCT_FIELD)
#undef RMS_NORM_CUSTOM_STRUCT_FIELD
  AscendC::tiling::RmsNormTiling mainTiling;  // a tile of tileRows rows
  AscendC::tiling::RmsNormTiling tailTiling;  // a tile of tailTileRows rows
};

// The holder passes the struct as 17 scalar slots (python/plugin/rms_norm_custom_holder.py).
static_assert(sizeof(RmsNormCustomTiling) == 136, "RmsNormCustomTiling is 136 bytes: 17 launch slots");

#endif  // OPS_RMS_NORM_CUSTOM_KERNEL_RMS_NORM_CUSTOM_TILING_H_

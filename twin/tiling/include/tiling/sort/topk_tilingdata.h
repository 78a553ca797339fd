// tiling/sort/topk_tilingdata.h: optiling::TopkTiling, the host class of the kernel's
// TopkTiling (kernel_tiling/topk_tiling.h): the same fields in the same order, so SaveToBuffer
// writes the struct the kernel reads.
#ifndef ASC_TWIN_TILING_SORT_TOPK_TILINGDATA_H_
#define ASC_TWIN_TILING_SORT_TOPK_TILINGDATA_H_

#include "kernel_tiling/topk_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TopkTiling)
ASC_TWIN_TOPK_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;
}  // namespace optiling

#endif  // ASC_TWIN_TILING_SORT_TOPK_TILINGDATA_H_

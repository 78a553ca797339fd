// tiling/transpose/confusion_transpose_tilingdata.h: the optiling host class of the
// ConfusionTranspose form of Transpose (CANN's name), expanded from the field list of
// kernel_tiling/data_layout_tiling.h.
#ifndef ASC_TWIN_TILING_TRANSPOSE_CONFUSION_TRANSPOSE_TILINGDATA_H_
#define ASC_TWIN_TILING_TRANSPOSE_CONFUSION_TRANSPOSE_TILINGDATA_H_

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConfusionTransposeTiling)
ASC_TWIN_CONFUSION_TRANSPOSE_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;
}  // namespace optiling

#endif  // ASC_TWIN_TILING_TRANSPOSE_CONFUSION_TRANSPOSE_TILINGDATA_H_

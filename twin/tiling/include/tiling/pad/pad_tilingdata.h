// tiling/pad/pad_tilingdata.h: the optiling host classes of Pad and UnPad (CANN's names),
// expanded from the field lists of kernel_tiling/data_layout_tiling.h, so SaveToBuffer writes
// the struct the kernel reads and TILING_DATA_FIELD_DEF_STRUCT(PadTiling, ...) nests them.
#ifndef ASC_TWIN_TILING_PAD_PAD_TILINGDATA_H_
#define ASC_TWIN_TILING_PAD_PAD_TILINGDATA_H_

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(UnPadTiling)
ASC_TWIN_UNPAD_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(PadTiling)
ASC_TWIN_PAD_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;
}  // namespace optiling

#endif  // ASC_TWIN_TILING_PAD_PAD_TILINGDATA_H_

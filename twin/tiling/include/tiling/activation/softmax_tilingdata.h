// tiling/activation/softmax_tilingdata.h: optiling::SoftMaxTiling, the host class of the
// kernel's SoftMaxTiling (kernel_tiling/kernel_tiling.h): the same fields in the same order,
// so SaveToBuffer writes the struct the kernel reads.
#ifndef ASC_TWIN_TILING_ACTIVATION_SOFTMAX_TILINGDATA_H_
#define ASC_TWIN_TILING_ACTIVATION_SOFTMAX_TILINGDATA_H_

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftMaxTiling)
ASC_TWIN_SOFTMAX_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;
}  // namespace optiling

#endif  // ASC_TWIN_TILING_ACTIVATION_SOFTMAX_TILINGDATA_H_

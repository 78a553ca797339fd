// tiling/activation/logsoftmax_tilingdata.h: optiling::LogSoftMaxTiling (the kernel's
// LogSoftMaxTiling, field for field).
#ifndef ASC_TWIN_TILING_ACTIVATION_LOGSOFTMAX_TILINGDATA_H_
#define ASC_TWIN_TILING_ACTIVATION_LOGSOFTMAX_TILINGDATA_H_

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LogSoftMaxTiling)
ASC_TWIN_LOGSOFTMAX_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;
}  // namespace optiling

#endif  // ASC_TWIN_TILING_ACTIVATION_LOGSOFTMAX_TILINGDATA_H_

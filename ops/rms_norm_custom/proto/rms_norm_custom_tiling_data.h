// The host tiling class of RmsNormCustom: the kernel's RmsNormCustomTiling
// (kernel/rms_norm_custom_tiling.h) as CANN's op_host code declares it, with the high-level
// API's optiling::RmsNormTiling nested for the main and the tail tile.
#ifndef OPS_RMS_NORM_CUSTOM_PROTO_RMS_NORM_CUSTOM_TILING_DATA_H_
#define OPS_RMS_NORM_CUSTOM_PROTO_RMS_NORM_CUSTOM_TILING_DATA_H_

#include "../kernel/rms_norm_custom_tiling.h"
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RmsNormCustomTilingData)
RMS_NORM_CUSTOM_TILING_FIELDS(TILING_DATA_FIELD_DEF)
TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, mainTiling);
TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, tailTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmsNormCustom, RmsNormCustomTilingData)
}  // namespace optiling

#endif  // OPS_RMS_NORM_CUSTOM_PROTO_RMS_NORM_CUSTOM_TILING_DATA_H_

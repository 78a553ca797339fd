// tiling/normalization/layernorm_tilingdata.h: CANN's header name for this API's host tiling class
// (all normalisation classes are in norm_tilingdata.h).
#ifndef ASC_TWIN_TILING_NORMALIZATION_LAYERNORM_TILINGDATA_H_
#define ASC_TWIN_TILING_NORMALIZATION_LAYERNORM_TILINGDATA_H_

#include "tiling/normalization/norm_tilingdata.h"

#endif  // ASC_TWIN_TILING_NORMALIZATION_LAYERNORM_TILINGDATA_H_

// tiling/tiling_api.h: the host side of Ascend C's high-level API. Each API's header declares
// its Get*MaxMinTmpSize / *TilingFunc functions (namespace AscendC) and, where CANN has one,
// the host tiling class (namespace optiling, BEGIN_TILING_DATA_DEF). Implemented in
// libtiling_api.a (twin/tiling/src).
#ifndef ASC_TWIN_TILING_TILING_API_H_
#define ASC_TWIN_TILING_TILING_API_H_

#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"

// ---- activation and normalisation ----


// ---- math, reductions, quantisation, sort, transpose, pad, select ----


// ---- cube: matmul_tiling ----
#include "tiling/matmul/matmul_tiling.h"
#include "tiling/matmul/bmm_tiling.h"


#endif  // ASC_TWIN_TILING_TILING_API_H_

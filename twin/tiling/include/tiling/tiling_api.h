// tiling/tiling_api.h: the host side of Ascend C's high-level API. Each API's header declares
// its Get*MaxMinTmpSize / *TilingFunc functions (namespace AscendC) and, where CANN has one,
// the host tiling class (namespace optiling, BEGIN_TILING_DATA_DEF). Implemented in
// libtiling_api.a (twin/tiling/src).
#ifndef ASC_TWIN_TILING_TILING_API_H_
#define ASC_TWIN_TILING_TILING_API_H_

#include "kernel_tiling/kernel_tiling.h"
#include "securec.h"  // memcpy_s & co, which tiling code uses as CANN's headers make them visible
#include "tiling/platform/platform_ascendc.h"

// ---- activation and normalisation ----
#include "tiling/activation/logsoftmax_tiling.h"
#include "tiling/activation/softmax_tiling.h"
#include "tiling/normalization/deepnorm_tiling.h"
#include "tiling/normalization/layernorm_grad_beta_tiling.h"
#include "tiling/normalization/layernorm_grad_tiling.h"
#include "tiling/normalization/layernorm_tiling.h"
#include "tiling/normalization/normalize_tiling.h"
#include "tiling/normalization/rmsnorm_tiling.h"
#include "tiling/normalization/welfordfinalize_tiling.h"


// ---- math, reductions, quantisation, sort, transpose, pad, select ----


// ---- cube: matmul_tiling ----


#endif  // ASC_TWIN_TILING_TILING_API_H_

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
#include "tiling/activation/geglu_tiling.h"
#include "tiling/activation/gelu_tiling.h"
#include "tiling/activation/reglu_tiling.h"
#include "tiling/activation/sigmoid_tiling.h"
#include "tiling/activation/silu_tiling.h"
#include "tiling/activation/swiglu_tiling.h"
#include "tiling/activation/swish_tiling.h"
#include "tiling/utils/types.h"
#include "tiling/sort/sort_tiling_intf.h"
#include "tiling/filter/dropout_tiling.h"
#include "tiling/select/selectwithbytesmask_tiling.h"
#include "tiling/index/arithprogression_tiling.h"
#include "tiling/reduce/mean_tiling.h"
#include "tiling/reduce/reduce_tiling.h"
#include "tiling/reduce/sum_tiling.h"
#include "tiling/math/acos_tiling.h"
#include "tiling/math/acosh_tiling.h"
#include "tiling/math/asin_tiling.h"
#include "tiling/math/asinh_tiling.h"
#include "tiling/math/atan_tiling.h"
#include "tiling/math/atanh_tiling.h"
#include "tiling/math/axpy_tiling.h"
#include "tiling/math/bitwise_and_tiling.h"
#include "tiling/math/bitwise_not_tiling.h"
#include "tiling/math/bitwise_or_tiling.h"
#include "tiling/math/bitwise_xor_tiling.h"
#include "tiling/math/ceil_tiling.h"
#include "tiling/math/clamp_tiling.h"
#include "tiling/math/cos_tiling.h"
#include "tiling/math/cosh_tiling.h"
#include "tiling/math/cum_sum_tiling.h"
#include "tiling/math/digamma_tiling.h"
#include "tiling/math/erf_tiling.h"
#include "tiling/math/erfc_tiling.h"
#include "tiling/math/exp_tiling.h"
#include "tiling/math/floor_tiling.h"
#include "tiling/math/fma_tiling.h"
#include "tiling/math/fmod_tiling.h"
#include "tiling/math/frac_tiling.h"
#include "tiling/math/hypot_tiling.h"
#include "tiling/math/is_inf_tiling.h"
#include "tiling/math/is_nan_tiling.h"
#include "tiling/math/lgamma_tiling.h"
#include "tiling/math/log_tiling.h"
#include "tiling/math/logical_and_tiling.h"
#include "tiling/math/logical_ands_tiling.h"
#include "tiling/math/logical_not_tiling.h"
#include "tiling/math/logical_or_tiling.h"
#include "tiling/math/logical_ors_tiling.h"
#include "tiling/math/logical_xor_tiling.h"
#include "tiling/math/power_tiling.h"
#include "tiling/math/rint_tiling.h"
#include "tiling/math/round_tiling.h"
#include "tiling/math/sign_tiling.h"
#include "tiling/math/sin_tiling.h"
#include "tiling/math/sincos_tiling.h"
#include "tiling/math/sinh_tiling.h"
#include "tiling/math/tan_tiling.h"
#include "tiling/math/tanh_tiling.h"
#include "tiling/math/trunc_tiling.h"
#include "tiling/math/where_tiling.h"
#include "tiling/math/xor_tiling.h"

// ---- data layout: pad, unpad, broadcast, ConfusionTranspose ----
#include "tiling/pad/broadcast_tiling.h"
#include "tiling/pad/pad_tiling.h"
#include "tiling/transpose/confusion_transpose_tiling.h"
#include "tiling/transpose/transdata_tiling.h"

// ---- quantisation, TopK ----
#include "tiling/quantization/ascend_antiquant_tiling.h"
#include "tiling/quantization/ascend_dequant_tiling.h"
#include "tiling/quantization/ascend_quant_tiling.h"
#include "tiling/sort/topk_tiling.h"

// ---- cube: matmul_tiling ----
#include "tiling/matmul/matmul_tiling.h"
#include "tiling/matmul/bmm_tiling.h"

#endif  // ASC_TWIN_TILING_TILING_API_H_

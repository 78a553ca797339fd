// adv_api/kernel_api.h: Ascend C's high-level API on the CPU (the Matmul API aside), included
// by kernel_operator.h as CANN's kernel_operator_intf.h includes it. One header per API, laid out as CANN's
// include/adv_api tree; the host side (tiling) is tiling/tiling_api.h (twin/tiling).
#ifndef ASC_TWIN_ADV_API_KERNEL_API_H_
#define ASC_TWIN_ADV_API_KERNEL_API_H_

#include "adv_api/utils/init_global_memory.h"

// ---- data layout: Pad, UnPad, Broadcast, Transpose (ConfusionTranspose) ----
#include "adv_api/pad/broadcast.h"
#include "adv_api/pad/pad.h"
#include "adv_api/transpose/confusion_transpose.h"
#include "adv_api/transpose/transdata.h"

// ---- activation and normalisation ----
#include "adv_api/activation/logsoftmax.h"
#include "adv_api/activation/simplesoftmax.h"
#include "adv_api/activation/softmax.h"
#include "adv_api/activation/softmaxflash.h"
#include "adv_api/activation/softmaxflashv2.h"
#include "adv_api/activation/softmaxgrad.h"
#include "adv_api/normalization/deepnorm.h"
#include "adv_api/normalization/layernorm.h"
#include "adv_api/normalization/layernormgrad.h"
#include "adv_api/normalization/layernormgradbeta.h"
#include "adv_api/normalization/normalize.h"
#include "adv_api/normalization/rmsnorm.h"
#include "adv_api/normalization/welfordfinalize.h"

// ---- quantisation, TopK (wp/hlquant) ----
#include "adv_api/quantization/ascend_antiquant.h"
#include "adv_api/quantization/ascend_dequant.h"
#include "adv_api/quantization/ascend_quant.h"
#include "adv_api/sort/topk.h"

// ---- math, reductions, quantisation, sort, transpose, pad, select ----
#include "adv_api/activation/geglu.h"
#include "adv_api/activation/gelu.h"
#include "adv_api/activation/reglu.h"
#include "adv_api/activation/sigmoid.h"
#include "adv_api/activation/silu.h"
#include "adv_api/activation/swiglu.h"
#include "adv_api/activation/swish.h"
#include "adv_api/filter/dropout.h"
#include "adv_api/index/arithprogression.h"
#include "adv_api/reduce/mean.h"
#include "adv_api/select/selectwithbytesmask.h"
#include "adv_api/reduce/reduce.h"
#include "adv_api/reduce/sum.h"
#include "adv_api/math/acos.h"
#include "adv_api/math/acosh.h"
#include "adv_api/math/asin.h"
#include "adv_api/math/asinh.h"
#include "adv_api/math/atan.h"
#include "adv_api/math/atanh.h"
#include "adv_api/math/axpy.h"
#include "adv_api/math/bitwise_and.h"
#include "adv_api/math/bitwise_not.h"
#include "adv_api/math/bitwise_or.h"
#include "adv_api/math/bitwise_xor.h"
#include "adv_api/math/ceil.h"
#include "adv_api/math/clamp.h"
#include "adv_api/math/cos.h"
#include "adv_api/math/cosh.h"
#include "adv_api/math/cumsum.h"
#include "adv_api/math/digamma.h"
#include "adv_api/math/erf.h"
#include "adv_api/math/erfc.h"
#include "adv_api/math/exp.h"
#include "adv_api/math/floor.h"
#include "adv_api/math/fma.h"
#include "adv_api/math/fmod.h"
#include "adv_api/math/frac.h"
#include "adv_api/math/hypot.h"
#include "adv_api/math/is_finite.h"
#include "adv_api/math/is_inf.h"
#include "adv_api/math/is_nan.h"
#include "adv_api/math/lgamma.h"
#include "adv_api/math/log.h"
#include "adv_api/math/logical_and.h"
#include "adv_api/math/logical_ands.h"
#include "adv_api/math/logical_not.h"
#include "adv_api/math/logical_or.h"
#include "adv_api/math/logical_ors.h"
#include "adv_api/math/logical_xor.h"
#include "adv_api/math/power.h"
#include "adv_api/math/rint.h"
#include "adv_api/math/round.h"
#include "adv_api/math/sign.h"
#include "adv_api/math/sin.h"
#include "adv_api/math/sincos.h"
#include "adv_api/math/sinh.h"
#include "adv_api/math/tan.h"
#include "adv_api/math/tanh.h"
#include "adv_api/math/trunc.h"
#include "adv_api/math/where.h"
#include "adv_api/math/xor.h"

// Not the Matmul API: as in CANN, kernels include "lib/matmul_intf.h" for it, and a kernel that
// does not may declare names of its own that the Matmul headers put at global scope
// (asc-devkit's set_loaddata_boundary defines its own `enum class CubeFormat`).

#endif  // ASC_TWIN_ADV_API_KERNEL_API_H_

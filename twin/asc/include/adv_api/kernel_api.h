// adv_api/kernel_api.h: Ascend C's high-level API on the CPU, included by kernel_operator.h
// as CANN's kernel_operator_intf.h includes it. One header per API, laid out as CANN's
// include/adv_api tree; the host side (tiling) is tiling/tiling_api.h (twin/tiling).
#ifndef ASC_TWIN_ADV_API_KERNEL_API_H_
#define ASC_TWIN_ADV_API_KERNEL_API_H_

#include "adv_api/utils/init_global_memory.h"

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


// ---- math, reductions, quantisation, sort, transpose, pad, select ----


// ---- cube: matmul ----


#endif  // ASC_TWIN_ADV_API_KERNEL_API_H_

// adv_api/kernel_api.h: Ascend C's high-level API on the CPU, included by kernel_operator.h
// as CANN's kernel_operator_intf.h includes it. One header per API, laid out as CANN's
// include/adv_api tree; the host side (tiling) is tiling/tiling_api.h (twin/tiling).
#ifndef ASC_TWIN_ADV_API_KERNEL_API_H_
#define ASC_TWIN_ADV_API_KERNEL_API_H_

#include "adv_api/utils/init_global_memory.h"

// ---- activation and normalisation ----


// ---- math, reductions, quantisation, sort, transpose, pad, select ----


// ---- cube: matmul ----
#include "adv_api/matmul/matmul_intf.h"


#endif  // ASC_TWIN_ADV_API_KERNEL_API_H_

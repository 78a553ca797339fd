// kernel_tiling/kernel_tiling.h: the tiling structs of Ascend C's high-level API, as a kernel
// reads them (plain structs, CANN's names and field order), filled on the host by the
// functions of tiling/tiling_api.h (twin/tiling). Host code includes this header too.
#ifndef ASC_TWIN_KERNEL_TILING_KERNEL_TILING_H_
#define ASC_TWIN_KERNEL_TILING_KERNEL_TILING_H_

#include <cstdint>

// ---- activation and normalisation (SoftMaxTiling, LayerNormTiling, RmsNormTiling, ...) ----


// ---- math, reductions, quantisation, sort, transpose, pad, select ----


// ---- cube: TCubeTiling (the Matmul high-level API) ----


#endif  // ASC_TWIN_KERNEL_TILING_KERNEL_TILING_H_

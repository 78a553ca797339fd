// The Matmul tiling's view of its DataTypes: element sizes and which A/B/C/bias combinations the
// cube computes (fp16/bf16/fp32 -> float, int8/int4 -> int32, fp16 x int8 anti-quant).
#ifndef ASC_TWIN_TILING_SRC_MATMUL_DTYPE_H_
#define ASC_TWIN_TILING_SRC_MATMUL_DTYPE_H_

#include <cstdint>

#include "tiling/matmul/matmul_tiling_base.h"

namespace asc_twin_tiling {

// Bytes of one element (int4: 1, two per byte in memory); 0 for a type Matmul never takes.
int32_t MatmulElementBytes(matmul_tiling::DataType type);
const char* MatmulTypeName(matmul_tiling::DataType type);
// Null when the cube computes A x B -> C (+ bias); else the reason, one phrase.
const char* CheckMatmulTypes(matmul_tiling::DataType a, matmul_tiling::DataType b, matmul_tiling::DataType c,
                             bool hasBias, matmul_tiling::DataType bias);

}  // namespace asc_twin_tiling

#endif  // ASC_TWIN_TILING_SRC_MATMUL_DTYPE_H_

// tiling/normalization/normalize_tiling.h: the host side of Normalize (CANN's signature;
// srcShape [A, R]).
#ifndef ASC_TWIN_TILING_NORMALIZATION_NORMALIZE_TILING_H_
#define ASC_TWIN_TILING_NORMALIZATION_NORMALIZE_TILING_H_

#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {
using TensorShape = ge::Shape;

void GetNormalizeMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                               const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                               uint32_t& maxValue, uint32_t& minValue);
}  // namespace AscendC

#endif  // ASC_TWIN_TILING_NORMALIZATION_NORMALIZE_TILING_H_

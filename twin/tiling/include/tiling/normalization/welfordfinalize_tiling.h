// tiling/normalization/welfordfinalize_tiling.h: the host side of WelfordFinalize (CANN's
// signature; srcShape [abLength]).
#ifndef ASC_TWIN_TILING_NORMALIZATION_WELFORDFINALIZE_TILING_H_
#define ASC_TWIN_TILING_NORMALIZATION_WELFORDFINALIZE_TILING_H_

#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {
using TensorShape = ge::Shape;

void GetWelfordFinalizeMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                     const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
}  // namespace AscendC

#endif  // ASC_TWIN_TILING_NORMALIZATION_WELFORDFINALIZE_TILING_H_

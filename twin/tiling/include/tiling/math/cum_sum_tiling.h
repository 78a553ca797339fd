// Host tmp-size function of the CumSum high-level API.
#ifndef ASC_TWIN_TILING_MATH_CUM_SUM_TILING_H_
#define ASC_TWIN_TILING_MATH_CUM_SUM_TILING_H_

#include <cstdint>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/utils/types.h"

namespace AscendC {

// CumSum's temporary space for a 2-D [outter, inner] srcShape, along the last axis or the first.
void GetCumSumMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isLastAxis,
                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_MATH_CUM_SUM_TILING_H_

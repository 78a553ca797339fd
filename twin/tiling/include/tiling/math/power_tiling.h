// Host tmp-size functions of the Power high-level API.
#ifndef ASC_TWIN_TILING_MATH_POWER_TILING_H_
#define ASC_TWIN_TILING_MATH_POWER_TILING_H_

#include <cstdint>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/utils/types.h"

namespace AscendC {

// Power's temporary space: the larger of the two shapes counts (one operand may be a scalar).
void GetPowerMaxMinTmpSize(const AscendC::TensorShape& srcShape1, const AscendC::TensorShape& srcShape2,
                           const bool typeIsInt, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                           uint32_t& minValue);
void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                 const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_MATH_POWER_TILING_H_

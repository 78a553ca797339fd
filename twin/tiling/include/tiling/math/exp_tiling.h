// Host tmp-size functions of the Exp high-level API.
#ifndef ASC_TWIN_TILING_MATH_EXP_TILING_H_
#define ASC_TWIN_TILING_MATH_EXP_TILING_H_

#include <cstdint>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/utils/types.h"

namespace AscendC {

// Exp's temporary space (the Taylor-expansion form); returns false for a bad shape or type size.
bool GetExpMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                         uint32_t& maxValue, uint32_t& minValue);
void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_MATH_EXP_TILING_H_

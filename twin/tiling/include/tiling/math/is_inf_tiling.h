// Host tmp-size functions of the IsInf high-level API.
#ifndef ASC_TWIN_TILING_MATH_IS_INF_TILING_H_
#define ASC_TWIN_TILING_MATH_IS_INF_TILING_H_

#include <cstdint>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/utils/types.h"

namespace AscendC {

// The temporary space IsInf needs for srcShape's elements of typeSize bytes (see Get*MaxMinTmpSize).
void GetIsInfMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                           const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue);
void GetIsInfTmpBufferFactorSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t typeSize,
                                 uint32_t& maxLivedNodeCount, uint32_t& extraBuf);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_MATH_IS_INF_TILING_H_

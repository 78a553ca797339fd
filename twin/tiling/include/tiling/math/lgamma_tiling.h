// Host tmp-size functions of the Lgamma high-level API.
#ifndef ASC_TWIN_TILING_MATH_LGAMMA_TILING_H_
#define ASC_TWIN_TILING_MATH_LGAMMA_TILING_H_

#include <cstdint>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/utils/types.h"

namespace AscendC {

// The temporary space Lgamma needs for srcShape's elements of typeSize bytes: maxValue lets it
// run in one pass, minValue is the least it accepts (a smaller sharedTmpBuffer traps).
void GetLgammaMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                            uint32_t& maxValue, uint32_t& minValue);
// tmp bytes = maxLiveNodeCount * count * typeSize + extraBuf.
void GetLgammaTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_MATH_LGAMMA_TILING_H_

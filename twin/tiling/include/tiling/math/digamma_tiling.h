// Host tmp-size functions of the Digamma high-level API.
#ifndef ASC_TWIN_TILING_MATH_DIGAMMA_TILING_H_
#define ASC_TWIN_TILING_MATH_DIGAMMA_TILING_H_

#include <cstdint>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/utils/types.h"

namespace AscendC {

// The temporary space Digamma needs for srcShape's elements of typeSize bytes: maxValue lets it
// run in one pass, minValue is the least it accepts (a smaller sharedTmpBuffer traps).
void GetDigammaMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                             uint32_t& maxValue, uint32_t& minValue);
// tmp bytes = maxLiveNodeCount * count * typeSize + extraBuf.
void GetDigammaTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_MATH_DIGAMMA_TILING_H_

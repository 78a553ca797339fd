// Host tmp-size functions of the SwiGLU high-level API (max: one pass; min: the least the kernel accepts).
#ifndef ASC_TWIN_TILING_ACTIVATION_SWIGLU_TILING_H_
#define ASC_TWIN_TILING_ACTIVATION_SWIGLU_TILING_H_

#include <cstdint>

#include "tiling/utils/types.h"

namespace AscendC {

void GetSwiGLUMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                            uint32_t& minValue, const bool isReuseSource = false);
void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_ACTIVATION_SWIGLU_TILING_H_

// Host tmp-size functions of the GeGLU high-level API (max: one pass; min: the least the kernel accepts).
#ifndef ASC_TWIN_TILING_ACTIVATION_GEGLU_TILING_H_
#define ASC_TWIN_TILING_ACTIVATION_GEGLU_TILING_H_

#include <cstdint>

#include "tiling/utils/types.h"

namespace AscendC {

void GetGeGLUMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue);
void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_ACTIVATION_GEGLU_TILING_H_

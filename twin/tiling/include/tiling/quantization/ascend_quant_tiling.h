// Host tmp-size functions of AscendQuant (per tensor and per channel: the same space).
#ifndef ASC_TWIN_TILING_QUANTIZATION_ASCEND_QUANT_TILING_H_
#define ASC_TWIN_TILING_QUANTIZATION_ASCEND_QUANT_TILING_H_

#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {

// The sharedTmpBuffer range for srcShape's elements of typeSize bytes (2: half, 4: float):
// minValue is the least the kernel accepts, maxValue lets it run in one pass.
void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue);
uint32_t GetAscendQuantMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize);
uint32_t GetAscendQuantMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize);
// tmp bytes = maxLiveNodeCount * count * typeSize + extraBuf.
void GetAscendQuantTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_QUANTIZATION_ASCEND_QUANT_TILING_H_

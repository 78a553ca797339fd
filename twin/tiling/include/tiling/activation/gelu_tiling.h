// Host tmp-size functions of the Gelu, FasterGelu, FasterGeluV2 high-level API (max: one pass; min: the least the
// kernel accepts).
#ifndef ASC_TWIN_TILING_ACTIVATION_GELU_TILING_H_
#define ASC_TWIN_TILING_ACTIVATION_GELU_TILING_H_

#include <cstdint>

#include "tiling/utils/types.h"

namespace AscendC {

uint32_t GetGeluMaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize);
uint32_t GetGeluMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize);
void GetGeluMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                          uint32_t& minValue);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_ACTIVATION_GELU_TILING_H_

// Host tmp-size functions of the Sigmoid high-level API (max: one pass; min: the least the kernel accepts).
#ifndef ASC_TWIN_TILING_ACTIVATION_SIGMOID_TILING_H_
#define ASC_TWIN_TILING_ACTIVATION_SIGMOID_TILING_H_

#include <cstdint>

#include "tiling/utils/types.h"

namespace AscendC {

void GetSigmoidMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, bool isReuseSource,
                             uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_ACTIVATION_SIGMOID_TILING_H_

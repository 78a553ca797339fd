// Host tmp-size functions of the ReGlu high-level API (max: one pass; min: the least the kernel accepts).
#ifndef ASC_TWIN_TILING_ACTIVATION_REGLU_TILING_H_
#define ASC_TWIN_TILING_ACTIVATION_REGLU_TILING_H_

#include <cstdint>

#include "tiling/utils/types.h"

namespace AscendC {

void GetReGluMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_ACTIVATION_REGLU_TILING_H_

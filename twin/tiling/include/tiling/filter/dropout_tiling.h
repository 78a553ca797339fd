// Host tmp-size functions of DropOut (srcShape: [firstAxis, srcLastAxis]).
#ifndef ASC_TWIN_TILING_FILTER_DROPOUT_TILING_H_
#define ASC_TWIN_TILING_FILTER_DROPOUT_TILING_H_

#include <cstdint>

#include "tiling/utils/types.h"

namespace AscendC {

uint32_t GetDropOutMaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource);
uint32_t GetDropOutMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource);
void GetDropOutMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                             uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_FILTER_DROPOUT_TILING_H_

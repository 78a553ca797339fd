// Host tmp-size functions of AscendDequant. srcShape is [..., n]: its last dimension is the
// row (the deqScale length), the others multiply to the rows m.
#ifndef ASC_TWIN_TILING_QUANTIZATION_ASCEND_DEQUANT_TILING_H_
#define ASC_TWIN_TILING_QUANTIZATION_ASCEND_DEQUANT_TILING_H_

#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {

// typeSize is the source's (4: int32_t).
void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue);
uint32_t GetAscendDequantMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize);
uint32_t GetAscendDequantMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_QUANTIZATION_ASCEND_DEQUANT_TILING_H_

// Host tmp-size functions of AscendAntiQuant (src int8/int4 -> half/bfloat16, scale and offset
// of scaleShape's elements each).
#ifndef ASC_TWIN_TILING_QUANTIZATION_ASCEND_ANTIQUANT_TILING_H_
#define ASC_TWIN_TILING_QUANTIZATION_ASCEND_ANTIQUANT_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "graph/types.h"

namespace AscendC {

uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                      ge::DataType inputDataType, ge::DataType outputDataType);
uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                      ge::DataType inputDataType, ge::DataType outputDataType);
void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                     ge::DataType inputDataType, ge::DataType outputDataType, uint32_t& maxValue,
                                     uint32_t& minValue);
void GetAscendAntiQuantTmpBufferFactorSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                           ge::DataType inputDataType, ge::DataType outputDataType,
                                           uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_QUANTIZATION_ASCEND_ANTIQUANT_TILING_H_

// The shape and data-type names the high-level API's host functions take (CANN's
// adv_api/utils/types.h): a ge::Shape and a ge::DataType.
#ifndef ASC_TWIN_TILING_UTILS_TYPES_H_
#define ASC_TWIN_TILING_UTILS_TYPES_H_

#include "graph/tensor.h"
#include "graph/types.h"

namespace AscendC {
using TensorShape = ge::Shape;
using TensorDataType = ge::DataType;
}  // namespace AscendC

#endif  // ASC_TWIN_TILING_UTILS_TYPES_H_

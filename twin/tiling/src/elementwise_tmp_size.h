// The shared body of every element-wise API's Get*MaxMinTmpSize / Get*TmpBufferFactorSize:
// the shape's element count through the twin's tmp model (kernel_tiling/asc_twin_tmp_sizes.h),
// the same model the kernel headers check a sharedTmpBuffer against.
#ifndef ASC_TWIN_TILING_SRC_ELEMENTWISE_TMP_SIZE_H_
#define ASC_TWIN_TILING_SRC_ELEMENTWISE_TMP_SIZE_H_

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/asc_twin_tmp_sizes.h"

namespace asc_twin_tiling {

// False (maxValue = minValue = 0, one error line naming api and the cause) for a shape that is
// empty, unknown or overflowing, or a typeSize other than 1, 2, 4 or 8.
bool ElementwiseTmpSize(const char* api, const ge::Shape& shape, uint32_t typeSize, uint32_t fp32Nodes,
                        uint32_t& maxValue, uint32_t& minValue);

// The factor form: maxLiveNodeCount nodes of typeSize per element plus extraBuf bytes.
void ElementwiseTmpFactor(uint32_t typeSize, uint32_t fp32Nodes, uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

// The element count of shape (false with *why for a bad one).
bool ShapeElements(const ge::Shape& shape, uint64_t* count, const char** why);

// One line at ERROR: "<api>: <cause>".
void TilingError(const char* api, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

}  // namespace asc_twin_tiling

#endif  // ASC_TWIN_TILING_SRC_ELEMENTWISE_TMP_SIZE_H_

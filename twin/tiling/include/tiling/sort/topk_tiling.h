// Host side of TopK: the temporary-space range (GetTopKMaxMinTmpSize) and the TopkTiling fill
// (TopKTilingFunc, for the host class optiling::TopkTiling and the plain kernel struct).
// Both return false, with one error line naming the function and the cause, for a shape or
// type TopK does not take (the outputs are then zero).
#ifndef ASC_TWIN_TILING_SORT_TOPK_TILING_H_
#define ASC_TWIN_TILING_SORT_TOPK_TILING_H_

#include <cstdint>

#include "kernel_tiling/topk_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/sort/topk_tilingdata.h"

namespace AscendC {

bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                          const int32_t outter, const bool isReuseSource, const bool isInitIndex, enum TopKMode mode,
                          const bool isLargest, const uint32_t dataTypeSize, uint32_t& maxValue, uint32_t& minValue);

bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner, const int32_t outter,
                    const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex, enum TopKMode mode,
                    const bool isLargest, optiling::TopkTiling& topKTiling);
bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner, const int32_t outter,
                    const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex, enum TopKMode mode,
                    const bool isLargest, AscendC::tiling::TopkTiling& topKTiling);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_SORT_TOPK_TILING_H_

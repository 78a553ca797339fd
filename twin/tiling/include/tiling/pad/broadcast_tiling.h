// tiling/pad/broadcast_tiling.h: the host side of Broadcast (CANN's signature and spelling,
// GetBroadCastMaxMinTmpSize). srcShape and dstShape have the same rank (1 or 2); a bad pair or
// typeSize gives 0 and 0 and one error line in the plog.
#ifndef ASC_TWIN_TILING_PAD_BROADCAST_TILING_H_
#define ASC_TWIN_TILING_PAD_BROADCAST_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {
void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                               const ge::Shape& dstShape, uint32_t typeSize, const bool isReuseSource,
                               uint32_t& maxValue, uint32_t& minValue);
}  // namespace AscendC

#endif  // ASC_TWIN_TILING_PAD_BROADCAST_TILING_H_

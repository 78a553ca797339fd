// tiling/pad/pad_tiling.h: the host side of Pad and UnPad (CANN's signatures). srcShape is
// [height, width] (width with its padding), oriSrcShape the same with the valid width. A bad
// shape or typeSize gives 0 / a zeroed tiling and one error line in the plog.
#ifndef ASC_TWIN_TILING_PAD_PAD_TILING_H_
#define ASC_TWIN_TILING_PAD_PAD_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/pad/pad_tilingdata.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {
void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue);
void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                   const uint32_t typeSize, optiling::PadTiling& tiling);
void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                   const uint32_t typeSize, AscendC::tiling::PadTiling& tiling);

void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                           const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue);
void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                     optiling::UnPadTiling& tiling);
void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                     AscendC::tiling::UnPadTiling& tiling);
}  // namespace AscendC

#endif  // ASC_TWIN_TILING_PAD_PAD_TILING_H_

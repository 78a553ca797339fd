// tiling/transpose/confusion_transpose_tiling.h: the host side of Transpose's ConfusionTranspose
// scenarios (CANN's signatures; the GetConfusionTranspose* names are CANN's deprecated spellings
// of the GetTranspose* ones). srcShape is [B, N, S, H/N] for scenarios 1-6 and [H, W] for 7;
// transposeTypeIn the scenario (the TransposeType value). A bad shape, type or scenario gives 0
// / a zeroed tiling and one error line in the plog.
#ifndef ASC_TWIN_TILING_TRANSPOSE_CONFUSION_TRANSPOSE_TILING_H_
#define ASC_TWIN_TILING_TRANSPOSE_CONFUSION_TRANSPOSE_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/transpose/confusion_transpose_tilingdata.h"

namespace AscendC {
void GetTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const uint32_t transposeTypeIn,
                               uint32_t& maxValue, uint32_t& minValue);
void GetConfusionTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                        const uint32_t transposeTypeIn, uint32_t& maxValue, uint32_t& minValue);
void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            const uint32_t transposeTypeIn, optiling::ConfusionTransposeTiling& tiling);
void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            const uint32_t transposeTypeIn, AscendC::tiling::ConfusionTransposeTiling& tiling);
void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const uint32_t transposeTypeIn, optiling::ConfusionTransposeTiling& tiling);
void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const uint32_t transposeTypeIn, AscendC::tiling::ConfusionTransposeTiling& tiling);
// Scenario 7 ([H, W] -> [W, H]).
void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, optiling::ConfusionTransposeTiling& tiling);
void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, AscendC::tiling::ConfusionTransposeTiling& tiling);
}  // namespace AscendC

#endif  // ASC_TWIN_TILING_TRANSPOSE_CONFUSION_TRANSPOSE_TILING_H_

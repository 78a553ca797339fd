// tiling/normalization/deepnorm_tiling.h: the host side of DeepNorm (CANN's signatures; shapes
// as RmsNorm's). false, with one error line in the plog, for a bad shape or too small a buffer.
#ifndef ASC_TWIN_TILING_NORMALIZATION_DEEPNORM_TILING_H_
#define ASC_TWIN_TILING_NORMALIZATION_DEEPNORM_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/normalization/norm_tilingdata.h"

namespace AscendC {
using TensorShape = ge::Shape;

bool GetDeepNormMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                              const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue);
bool GetDeepNormTilingInfo(const AscendC::TensorShape& srcShape, const AscendC::TensorShape& originSrcShape,
                           const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                           const bool isBasicBlock, optiling::DeepNormTiling& tiling);
bool GetDeepNormTilingInfo(const AscendC::TensorShape& srcShape, const AscendC::TensorShape& originSrcShape,
                           const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                           const bool isBasicBlock, AscendC::tiling::DeepNormTiling& tiling);
}  // namespace AscendC

#endif  // ASC_TWIN_TILING_NORMALIZATION_DEEPNORM_TILING_H_

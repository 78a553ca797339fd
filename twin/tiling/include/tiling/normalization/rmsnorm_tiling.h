// tiling/normalization/rmsnorm_tiling.h: the host side of RmsNorm (CANN's signatures). srcShape
// is [B, S, H] (H padded to 32 bytes), originSrcShape the same with the unpadded H. Both return
// false, with one error line in the plog, for a bad shape or a too small stack buffer.
#ifndef ASC_TWIN_TILING_NORMALIZATION_RMSNORM_TILING_H_
#define ASC_TWIN_TILING_NORMALIZATION_RMSNORM_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/normalization/norm_tilingdata.h"

namespace AscendC {
using TensorShape = ge::Shape;

bool GetRmsNormMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                             uint32_t& minValue, const bool isBasicBlock = false);
bool GetRmsNormTilingInfo(const AscendC::TensorShape& srcShape, const AscendC::TensorShape& originSrcShape,
                          const uint32_t stackBufferByteSize, const uint32_t typeSize, optiling::RmsNormTiling& tiling,
                          const bool isBasicBlock = false);
bool GetRmsNormTilingInfo(const AscendC::TensorShape& srcShape, const AscendC::TensorShape& originSrcShape,
                          const uint32_t stackBufferByteSize, const uint32_t typeSize,
                          AscendC::tiling::RmsNormTiling& tiling, const bool isBasicBlock = false);
}  // namespace AscendC

#endif  // ASC_TWIN_TILING_NORMALIZATION_RMSNORM_TILING_H_

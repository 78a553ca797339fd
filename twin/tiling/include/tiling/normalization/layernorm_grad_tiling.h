// tiling/normalization/layernorm_grad_tiling.h: the host side of LayerNormGrad (CANN's
// signatures; srcShape [B, S, H] or [B, S, H, originalH]).
#ifndef ASC_TWIN_TILING_NORMALIZATION_LAYERNORM_GRAD_TILING_H_
#define ASC_TWIN_TILING_NORMALIZATION_LAYERNORM_GRAD_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/normalization/norm_tilingdata.h"

namespace AscendC {
using TensorShape = ge::Shape;

void GetLayerNormGradMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize,
                                   const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetLayerNormGradNDTilingInfo(const AscendC::TensorShape srcShape, const uint32_t stackBufferSize,
                                  const uint32_t typeSize, const bool isReuseSource,
                                  optiling::LayerNormGradTiling& tiling);
void GetLayerNormGradNDTilingInfo(const AscendC::TensorShape srcShape, const uint32_t stackBufferSize,
                                  const uint32_t typeSize, const bool isReuseSource,
                                  AscendC::tiling::LayerNormGradTiling& tiling);
}  // namespace AscendC

#endif  // ASC_TWIN_TILING_NORMALIZATION_LAYERNORM_GRAD_TILING_H_

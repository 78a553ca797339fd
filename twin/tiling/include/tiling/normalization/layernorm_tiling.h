// tiling/normalization/layernorm_tiling.h: the host side of LayerNorm (both forms) and
// WelfordUpdate, with CANN's signatures. The classic form's srcShape is [B, S, H] or
// [B, S, H, originalH]; the separate form's is [A, R].
#ifndef ASC_TWIN_TILING_NORMALIZATION_LAYERNORM_TILING_H_
#define ASC_TWIN_TILING_NORMALIZATION_LAYERNORM_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/normalization/norm_tilingdata.h"

namespace AscendC {
using TensorShape = ge::Shape;

void GetLayerNormMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                               uint32_t& maxValue, uint32_t& minValue);
[[deprecated("GetLayerNormNDTillingInfo is deprecated, please use GetLayerNormNDTilingInfo instead!")]] void
GetLayerNormNDTillingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                          const bool isReuseSource, optiling::LayerNormTiling& tilling);
void GetLayerNormNDTilingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource, optiling::LayerNormTiling& tiling);
void GetLayerNormNDTilingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              AscendC::tiling::LayerNormTiling& tiling);
void GetWelfordUpdateMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSizeT,
                                   const uint32_t typeSizeU, const bool isReuseSource, const bool isInplace,
                                   uint32_t& maxValue, uint32_t& minValue);
void GetLayerNormMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                               const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                               uint32_t& minValue);
void GetLayerNormNDTilingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                              optiling::LayerNormSeparateTiling& tiling);
void GetLayerNormNDTilingInfo(const AscendC::TensorShape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                              AscendC::tiling::LayerNormSeparateTiling& tiling);
}  // namespace AscendC

#endif  // ASC_TWIN_TILING_NORMALIZATION_LAYERNORM_TILING_H_

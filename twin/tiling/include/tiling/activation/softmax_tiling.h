// tiling/activation/softmax_tiling.h: the host side of SoftMax, SimpleSoftMax, SoftmaxFlash,
// SoftmaxFlashV2, SoftmaxGrad: temporary-space sizes and the SoftMaxTiling fill, with CANN's
// signatures. srcShape is [..., K]: every dim but the last is a row.
#ifndef ASC_TWIN_TILING_ACTIVATION_SOFTMAX_TILING_H_
#define ASC_TWIN_TILING_ACTIVATION_SOFTMAX_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/activation/softmax_tilingdata.h"

namespace AscendC {
using TensorShape = ge::Shape;

uint32_t GetSoftMaxMaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                              const bool isReuseSource);
uint32_t GetSoftMaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                              const bool isReuseSource);
void SoftMaxTilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                       const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxTiling);
void SoftMaxTilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                       const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxTiling);

uint32_t GetSoftMaxFlashMaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                                   const bool isUpdate, const bool isReuseSource);
uint32_t GetSoftMaxFlashMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                                   const bool isUpdate, const bool isReuseSource);
void SoftMaxFlashTilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                            const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashTiling,
                            const bool isUpdate = false);
void SoftMaxFlashTilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                            const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxFlashTiling,
                            const bool isUpdate = false);

uint32_t GetSoftMaxGradMaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                  const bool isReuseSource);
uint32_t GetSoftMaxGradMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                  const bool isReuseSource);
void SoftMaxGradTilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                           const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxGradTiling,
                           const bool isFront = false);
void SoftMaxGradTilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize,
                           const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxGradTiling,
                           const bool isFront = false);

// Whether a SoftMax call with this tiling may use isBasicBlock = true: srcM a multiple of 8,
// srcK a multiple of 64 and below 2048.
bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2);
bool IsBasicBlockInSoftMax(AscendC::tiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2);

// dataTypeSize1: the data (dst/src); dataTypeSize2: the statistics (max/sum).
uint32_t GetSoftMaxFlashV2MinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const bool isUpdate, const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false);
uint32_t GetSoftMaxFlashV2MaxTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const bool isUpdate, const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false);
void SoftMaxFlashV2TilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                              const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                              const bool isBasicBlock = false, const bool isFlashOutputBrc = false);
void SoftMaxFlashV2TilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                              const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                              AscendC::tiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                              const bool isBasicBlock = false, const bool isFlashOutputBrc = false);

void GetSoftMaxFlashV3MaxMinTmpSize(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                                    const uint32_t dataTypeSize2, uint32_t& maxValue, uint32_t& minValue,
                                    const bool isUpdate, const bool isBasicBlock = false);
void SoftMaxFlashV3TilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                              const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxFlashV3Tiling, const bool isUpdate,
                              const bool isBasicBlock = false);
void SoftMaxFlashV3TilingFunc(const AscendC::TensorShape& srcShape, const uint32_t dataTypeSize1,
                              const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                              AscendC::tiling::SoftMaxTiling& softmaxFlashV3Tiling, const bool isUpdate,
                              const bool isBasicBlock = false);
}  // namespace AscendC

#endif  // ASC_TWIN_TILING_ACTIVATION_SOFTMAX_TILING_H_

// tiling/activation/logsoftmax_tiling.h: the host side of LogSoftMax (CANN's signatures).
#ifndef ASC_TWIN_TILING_ACTIVATION_LOGSOFTMAX_TILING_H_
#define ASC_TWIN_TILING_ACTIVATION_LOGSOFTMAX_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/activation/logsoftmax_tilingdata.h"

namespace AscendC {
using TensorShape = ge::Shape;

uint32_t GetLogSoftMaxMaxTmpSize(const AscendC::TensorShape srcShape, const uint32_t dataTypeSize,
                                 const bool isReuseSource);
uint32_t GetLogSoftMaxMinTmpSize(const AscendC::TensorShape srcShape, const uint32_t dataTypeSize,
                                 const bool isReuseSource);
void LogSoftMaxTilingFunc(const AscendC::TensorShape srcShape, const uint32_t dataTypeSize,
                          const uint32_t localWorkSpaceSize, optiling::LogSoftMaxTiling& softmaxTiling);
void LogSoftMaxTilingFunc(const AscendC::TensorShape srcShape, const uint32_t dataTypeSize,
                          const uint32_t localWorkSpaceSize, AscendC::tiling::LogSoftMaxTiling& softmaxTiling);
}  // namespace AscendC

#endif  // ASC_TWIN_TILING_ACTIVATION_LOGSOFTMAX_TILING_H_

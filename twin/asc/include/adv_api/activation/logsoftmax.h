// adv_api/activation/logsoftmax.h: LogSoftMax. Per row: max, sum = rowsum(exp(x - max)) (both
// out, one 32-byte block per row) and dst = log10(exp(x - max) / sum), CANN's definition (a
// base-10 logarithm), computed as (x - max - ln(sum)) * log10(e).
#ifndef ASC_TWIN_ADV_API_ACTIVATION_LOGSOFTMAX_H_
#define ASC_TWIN_ADV_API_ACTIVATION_LOGSOFTMAX_H_

#include "adv_api/activation/softmax.h"

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
                                  const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                  const LogSoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  // A default-constructed LocalTensor: the twin's scratch (CANN's samples pass one when the
  // host reported a minimum of 0).
  const LocalTensor<uint8_t>* tmp = sharedTmpBuffer.TwinData() != nullptr ? &sharedTmpBuffer : nullptr;
  twin::adv::SoftmaxTile<T, T>("LogSoftMax", twin::adv::ExpRowMode::kLog10, dst, &sum, &max, src, tmp, tiling.srcM,
                               tiling.srcK, softmaxShapeInfo, SOFTMAX_DEFAULT_CFG, false, isDataFormatNZ);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_LOGSOFTMAX_H_

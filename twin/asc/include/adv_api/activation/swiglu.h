// SwiGLU: dst = src0 * Swish(src1, beta) = src0 * src1 / (1 + e^(-beta src1)), beta = scalarValue.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_SWIGLU_H_
#define ASC_TWIN_ADV_API_ACTIVATION_SWIGLU_H_

#include "adv_api/activation/glu_impl.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue, const uint32_t calCount) {
  const float beta = scalarValue;
  twin::adv::Glu("SwiGLU", dstTensor, srcTensor0, srcTensor1, calCount,
                 [beta](float x) { return twin::adv::SwishF(x, beta); });
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  twin::adv::CheckTmpBuffer<T>("SwiGLU", sharedTmpBuffer, asc_twin_tmp::nodes::kSwiGLU, calCount);
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, sharedTmpBuffer, srcTensor0.GetSize());
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, LocalTensor<T>& srcTensor0, LocalTensor<T>& srcTensor1,
                              const float& scalarValue) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, srcTensor0.GetSize());
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_SWIGLU_H_

// GeGLU: dst = src0 * Gelu(src1) (Gelu's tanh approximation).
#ifndef ASC_TWIN_ADV_API_ACTIVATION_GEGLU_H_
#define ASC_TWIN_ADV_API_ACTIVATION_GEGLU_H_

#include "adv_api/activation/glu_impl.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, uint32_t calCount) {
  twin::adv::Glu("GeGLU", dstTensor, srcTensor0, srcTensor1, calCount, [](float x) { return twin::adv::GeluF(x); });
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             uint32_t calCount) {
  twin::adv::CheckTmpBuffer<T>("GeGLU", sharedTmpBuffer, asc_twin_tmp::nodes::kGeGLU, calCount);
  GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, srcTensor0.GetSize());
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1) {
  GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, srcTensor0.GetSize());
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_GEGLU_H_

// ReGlu: dst = src0 * max(src1, 0).
#ifndef ASC_TWIN_ADV_API_ACTIVATION_REGLU_H_
#define ASC_TWIN_ADV_API_ACTIVATION_REGLU_H_

#include "adv_api/activation/glu_impl.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const uint32_t calCount) {
  twin::adv::Glu("ReGlu", dstTensor, srcTensor0, srcTensor1, calCount, [](float x) { return x > 0.0f ? x : 0.0f; });
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             const uint32_t calCount) {
  twin::adv::CheckTmpBuffer<T>("ReGlu", sharedTmpBuffer, asc_twin_tmp::nodes::kReGlu, calCount);
  ReGlu<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, calCount);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_REGLU_H_

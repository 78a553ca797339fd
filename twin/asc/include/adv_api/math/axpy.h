// Axpy: dst = dst + src * scalar, element-wise; dst may be wider than src (half src into a
// float dst, as CANN's mixed form). Computed in fp32 and rounded once to T.
#ifndef ASC_TWIN_ADV_API_MATH_AXPY_H_
#define ASC_TWIN_ADV_API_MATH_AXPY_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

template <typename T, typename U, bool isReuseSource = false>
__aicore__ inline void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  static_assert(twin::adv::kIsAdvFloat<T> && twin::adv::kIsAdvFloat<U> && sizeof(T) >= sizeof(U),
                "Axpy takes half/float (dst at least as wide as src)");
  twin::adv::CheckTmpBuffer<U>("Axpy", sharedTmpBuffer, asc_twin_tmp::nodes::kAxpy, calCount);
  twin::adv::CheckOperand("Axpy", "dstTensor", dstTensor, calCount);
  twin::adv::CheckOperand("Axpy", "srcTensor", srcTensor, calCount);
  twin::LevelTwoDone();
  const float a = static_cast<float>(scalarValue);
  T* d = dstTensor.TwinData();
  const U* s = srcTensor.TwinData();
  for (uint32_t i = 0; i < calCount; ++i)
    d[i] = static_cast<T>(static_cast<float>(d[i]) + static_cast<float>(s[i]) * a);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_AXPY_H_

// Hypot: dst = sqrt(src0^2 + src1^2) without intermediate overflow (fp32 hypotf; half and
// bfloat16_t widened, rounded once).
#ifndef ASC_TWIN_ADV_API_MATH_HYPOT_H_
#define ASC_TWIN_ADV_API_MATH_HYPOT_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Hypot(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
  static_assert(twin::adv::kIsAdvFloat<T>, "Hypot takes half, bfloat16_t or float");
  twin::adv::Binary("Hypot", dstTensor, src0Tensor, src1Tensor, calCount,
                    [](float a, float b) { return std::hypot(a, b); });
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Hypot(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             const uint32_t calCount) {
  twin::adv::CheckTmpBuffer<T>("Hypot", sharedTmpBuffer, asc_twin_tmp::nodes::kHypot, calCount);
  Hypot<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Hypot(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Hypot<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Hypot(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor) {
  Hypot<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize());
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_HYPOT_H_

// Xor: dst = src0 ^ src1 bit by bit, for int16_t and uint16_t (CANN's types).
#ifndef ASC_TWIN_ADV_API_MATH_XOR_H_
#define ASC_TWIN_ADV_API_MATH_XOR_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
  static_assert(std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value, "Xor takes int16_t or uint16_t");
  twin::adv::Binary("Xor", dstTensor, src0Tensor, src1Tensor, calCount, [](T a, T b) { return static_cast<T>(a ^ b); });
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const uint32_t calCount) {
  twin::adv::CheckTmpBuffer<T>("Xor", sharedTmpBuffer, asc_twin_tmp::nodes::kXor, calCount);
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  if (src0Tensor.GetSize() != src1Tensor.GetSize()) {
    twin::RaiseTrap("Xor: src0Tensor holds %u elements, src1Tensor %u (they must match)", src0Tensor.GetSize(),
                    src1Tensor.GetSize());
  }
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor) {
  if (src0Tensor.GetSize() != src1Tensor.GetSize()) {
    twin::RaiseTrap("Xor: src0Tensor holds %u elements, src1Tensor %u (they must match)", src0Tensor.GetSize(),
                    src1Tensor.GetSize());
  }
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize());
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_XOR_H_

// Fmod: dst = fmod(src0, src1), the remainder of src0 / src1 truncated towards zero, sign of
// src0 (src1 == 0 gives nan). fp32 fmodf (exact); half/bfloat16_t widened and rounded once.
#ifndef ASC_TWIN_ADV_API_MATH_FMOD_H_
#define ASC_TWIN_ADV_API_MATH_FMOD_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo {
  NORMAL = 0,
  ITERATION_COMPENSATION = 1,
};
struct FmodConfig {
  FmodAlgo algo = FmodAlgo::NORMAL;
  uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
constexpr FmodConfig DEFAULT_FMOD_CONFIG = {FmodAlgo::NORMAL, FMOD_ITERATION_NUM_MAX};

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
  static_assert(twin::adv::kIsAdvFloat<T>, "Fmod takes half, bfloat16_t or float");
  twin::adv::Binary("Fmod", dstTensor, src0Tensor, src1Tensor, calCount,
                    [](float a, float b) { return std::fmod(a, b); });
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t calCount) {
  twin::adv::CheckTmpBuffer<T>("Fmod", sharedTmpBuffer, asc_twin_tmp::nodes::kFmod, calCount);
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, calCount);
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
__aicore__ inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                            const LocalTensor<T>& src1Tensor) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize());
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_FMOD_H_

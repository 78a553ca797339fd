// Gelu (tanh approximation), FasterGelu and FasterGeluV2 (CANN's simplified forms), fp32 inside;
// highPrecision / highPerformance choose among NPU instruction sequences and do not change the
// twin's fp32 result.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_GELU_H_
#define ASC_TWIN_ADV_API_ACTIVATION_GELU_H_

#include "adv_api/activation/activation_impl.h"

namespace AscendC {

#define ASC_TWIN_GELU_FORMS(Name, FN)                                                                 \
  template <typename T, bool highPrecision = false, bool highPerformance = false>                     \
  __aicore__ inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,         \
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize) { \
    static_assert(twin::adv::kIsAdvFloat<T>, #Name " takes half, bfloat16_t or float");               \
    twin::adv::CheckTmpBuffer<T>(#Name, sharedTmpBuffer, asc_twin_tmp::nodes::kGelu, dataSize);       \
    twin::adv::Unary(#Name, dstLocal, srcLocal, dataSize, [](float x) { return FN(x); });             \
  }                                                                                                   \
  template <typename T, bool highPrecision = false, bool highPerformance = false>                     \
  __aicore__ inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,         \
                              const uint32_t dataSize) {                                              \
    static_assert(twin::adv::kIsAdvFloat<T>, #Name " takes half, bfloat16_t or float");               \
    twin::adv::Unary(#Name, dstLocal, srcLocal, dataSize, [](float x) { return FN(x); });             \
  }

ASC_TWIN_GELU_FORMS(Gelu, twin::adv::GeluF)
ASC_TWIN_GELU_FORMS(FasterGelu, twin::adv::FasterGeluF)
ASC_TWIN_GELU_FORMS(FasterGeluV2, twin::adv::FasterGeluV2F)
#undef ASC_TWIN_GELU_FORMS

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_GELU_H_

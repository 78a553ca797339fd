// Fma: dst = src0 * src1 + src2 with one rounding (fp32 fmaf; half/bfloat16_t widened, then
// rounded once to nearest even).
#ifndef ASC_TWIN_ADV_API_MATH_FMA_H_
#define ASC_TWIN_ADV_API_MATH_FMA_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

struct FmaConfig {
  bool isReuseSource;
};
constexpr FmaConfig DEFAULT_FMA_CONFIG = {false};

template <const FmaConfig& config = DEFAULT_FMA_CONFIG, typename T>
__aicore__ inline void Fma(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const LocalTensor<T>& src2, const uint32_t count) {
  static_assert(twin::adv::kIsAdvFloat<T>, "Fma takes half, bfloat16_t or float");
  twin::adv::CheckOperand("Fma", "dst", dst, count);
  twin::adv::CheckOperand("Fma", "src0", src0, count);
  twin::adv::CheckOperand("Fma", "src1", src1, count);
  twin::adv::CheckOperand("Fma", "src2", src2, count);
  twin::LevelTwoDone();
  const T* a = src0.TwinData();
  const T* c = src2.TwinData();
  T* d = dst.TwinData();
  const T* b = src1.TwinData();
  for (uint32_t i = 0; i < count; ++i) {
    d[i] = static_cast<T>(std::fma(static_cast<float>(a[i]), static_cast<float>(b[i]), static_cast<float>(c[i])));
  }
}
template <const FmaConfig& config = DEFAULT_FMA_CONFIG, typename T>
__aicore__ inline void Fma(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const LocalTensor<T>& src2, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const uint32_t count) {
  twin::adv::CheckTmpBuffer<T>("Fma", sharedTmpBuffer, asc_twin_tmp::nodes::kFma, count);
  Fma<config, T>(dst, src0, src1, src2, count);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_FMA_H_

// SinCos: dst0 = sin(src), dst1 = cos(src) in one call (fp32 sinf/cosf; half/bfloat16_t
// widened, rounded once).
#ifndef ASC_TWIN_ADV_API_MATH_SINCOS_H_
#define ASC_TWIN_ADV_API_MATH_SINCOS_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

struct SinCosConfig {
  bool isReuseSource;
};
constexpr SinCosConfig DEFAULT_SINCOS_CONFIG = {false};

template <const SinCosConfig& config = DEFAULT_SINCOS_CONFIG, typename T>
__aicore__ inline void SinCos(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src,
                              const uint32_t count) {
  static_assert(twin::adv::kIsAdvFloat<T>, "SinCos takes half, bfloat16_t or float");
  twin::adv::CheckOperand("SinCos", "dst0", dst0, count);
  twin::adv::CheckOperand("SinCos", "dst1", dst1, count);
  twin::adv::CheckOperand("SinCos", "src", src, count);
  twin::LevelTwoDone();
  T* s0 = dst0.TwinData();
  T* c0 = dst1.TwinData();
  const T* x = src.TwinData();
  for (uint32_t i = 0; i < count; ++i) {
    const float v = static_cast<float>(x[i]);  // read before either write: dst may alias src
    s0[i] = static_cast<T>(std::sin(v));
    c0[i] = static_cast<T>(std::cos(v));
  }
}
template <const SinCosConfig& config = DEFAULT_SINCOS_CONFIG, typename T>
__aicore__ inline void SinCos(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count) {
  twin::adv::CheckTmpBuffer<T>("SinCos", sharedTmpBuffer, asc_twin_tmp::nodes::kSinCos, count);
  SinCos<config, T>(dst0, dst1, src, count);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_SINCOS_H_

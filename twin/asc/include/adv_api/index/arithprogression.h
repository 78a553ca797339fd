// Arange (also under its older name ArithProgression): dst[i] = firstValue + i * diffValue for
// i < count; floats in fp32 (half/bfloat16_t rounded once), integers exact with wrap-around.
#ifndef ASC_TWIN_ADV_API_INDEX_ARITHPROGRESSION_H_
#define ASC_TWIN_ADV_API_INDEX_ARITHPROGRESSION_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

template <typename T>
__aicore__ inline void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count) {
  static_assert(twin::adv::kIsAdvFloat<T> || std::is_same<T, int16_t>::value || std::is_same<T, int32_t>::value ||
                    std::is_same<T, int64_t>::value,
                "Arange takes half, bfloat16_t, float, int16_t, int32_t or int64_t");
  if (count < 0) twin::RaiseTrap("Arange: count %d is negative", count);
  twin::CheckUbOperand("Arange", "dst", dst, static_cast<uint32_t>(count));
  twin::LevelTwoDone();
  T* d = dst.TwinData();
  if constexpr (std::is_integral<T>::value) {
    using U = std::make_unsigned_t<T>;
    for (int32_t i = 0; i < count; ++i) {
      d[i] = static_cast<T>(static_cast<U>(firstValue) + static_cast<U>(i) * static_cast<U>(diffValue));
    }
  } else {
    const float a = static_cast<float>(firstValue);
    const float b = static_cast<float>(diffValue);
    for (int32_t i = 0; i < count; ++i) d[i] = static_cast<T>(a + static_cast<float>(i) * b);
  }
}

template <typename T>
__aicore__ inline void ArithProgression(const LocalTensor<T>& dst, const T firstValue, const T diffValue,
                                        const int32_t count) {
  Arange<T>(dst, firstValue, diffValue, count);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_INDEX_ARITHPROGRESSION_H_

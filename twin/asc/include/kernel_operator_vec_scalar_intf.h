// Count-form vector-scalar APIs: dst[i] = src[i] op scalar. The scalar is not
// used for template deduction, so `Muls(y, x, 0.5f, n)` works for half too.
#ifndef ASC_TWIN_KERNEL_OPERATOR_VEC_SCALAR_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_VEC_SCALAR_INTF_H_

#include "asc_twin/elementwise.h"

namespace AscendC {

#define ASC_TWIN_SCALAR_API(Name, Types, TypeText, Expr)                                                  \
  template <typename T, bool isSetMask = true>                                                            \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                       \
                              const typename twin::NonDeduced<T>::type& scalarValue, const int32_t& count) { \
    static_assert(twin::kIsOneOf<T, ASC_TWIN_UNPACK Types>, #Name " supports " TypeText);                \
    const twin::Wide<T> s = static_cast<twin::Wide<T>>(scalarValue);                                      \
    twin::MapUnary(#Name, dst, src, count, [s](T in) {                                                    \
      const twin::Wide<T> x = static_cast<twin::Wide<T>>(in);                                             \
      return static_cast<T>(Expr);                                                                        \
    });                                                                                                   \
  }
#define ASC_TWIN_UNPACK(...) __VA_ARGS__

ASC_TWIN_SCALAR_API(Adds, (int16_t, half, int32_t, float), "int16_t, half, int32_t, float", twin::WrapAdd(x, s))
ASC_TWIN_SCALAR_API(Muls, (int16_t, half, int32_t, float), "int16_t, half, int32_t, float", twin::WrapMul(x, s))
ASC_TWIN_SCALAR_API(Maxs, (int16_t, half, int32_t, float), "int16_t, half, int32_t, float", x > s ? x : s)
ASC_TWIN_SCALAR_API(Mins, (int16_t, half, int32_t, float), "int16_t, half, int32_t, float", x < s ? x : s)
ASC_TWIN_SCALAR_API(LeakyRelu, (half, float), "half, float", x >= 0 ? x : x * s)

#undef ASC_TWIN_UNPACK
#undef ASC_TWIN_SCALAR_API

// dst[i] = scalar for i < count.
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const typename twin::NonDeduced<T>::type& scalarValue,
                                 const int32_t& count) {
  static_assert(twin::kIsOneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,
                "Duplicate supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float");
  if (!twin::CheckCount("Duplicate", count)) return;
  twin::CheckUbOperand("Duplicate", "dst", dst, static_cast<uint32_t>(count));
  T* d = dst.TwinData();
  const T v = scalarValue;
  const uint32_t n = static_cast<uint32_t>(count);
  for (uint32_t i = 0; i < n; ++i) d[i] = v;
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_SCALAR_INTF_H_

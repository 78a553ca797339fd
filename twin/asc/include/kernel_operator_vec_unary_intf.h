// Unary vector APIs: count form `Op(dst, src, count)` and the level-0 forms
// `Op<T, isSetMask>(dst, src, mask[] | mask, repeatTime, UnaryRepeatParams)`, generated from
// one definition per op. Math ops compute in double (float) or float (half) and round once, so
// every result is within 1 ULP (Sqrt/Reciprocal correctly rounded).
// Math ops flush subnormal inputs and results to zero (sign kept), as the NPU's vector
// unit does for Exp/Ln/Sqrt/Rsqrt/Reciprocal; Abs/Relu/Not are exact bit operations.
#ifndef ASC_TWIN_KERNEL_OPERATOR_VEC_UNARY_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_VEC_UNARY_INTF_H_

#include <cmath>

#include "asc_twin/elementwise.h"

namespace AscendC {
namespace twin {
// Subnormal -> signed zero in the operand's own format.
template <typename T>
inline T FlushSubnormal(T x) {
  if constexpr (std::is_same<T, float>::value) {
    return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
  } else if constexpr (std::is_same<T, half>::value) {
    return (x.val & 0x7c00u) == 0 ? T::FromBits(static_cast<uint16_t>(x.val & 0x8000u)) : x;
  } else {
    return x;
  }
}

// Compute type of the math ops: double for float (<= 1 ULP after one rounding), float for half.
template <typename T>
using MathWide = std::conditional_t<std::is_same<T, float>::value, double, Wide<T>>;

template <typename T, bool kFtz, typename F>
inline T MathLane(T x, F f) {
  if constexpr (kFtz) {
    return FlushSubnormal<T>(static_cast<T>(f(static_cast<MathWide<T>>(FlushSubnormal<T>(x)))));
  } else {
    return static_cast<T>(f(static_cast<Wide<T>>(x)));
  }
}
}  // namespace twin

#define ASC_TWIN_UNARY_API(Name, Types, TypeText, Ftz, Expr)                                                \
  template <typename T>                                                                                     \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) { \
    static_assert(twin::kIsOneOf<T, ASC_TWIN_UNPACK Types>, #Name " supports " TypeText);                   \
    twin::MapUnary(#Name, dst, src, count,                                                                  \
                   [](T x) { return twin::MathLane<T, Ftz>(x, [](auto v) { return Expr; }); });             \
  }                                                                                                         \
  ASC_TWIN_UNARY_L0(Name, const uint64_t mask[], Types, TypeText, Ftz, Expr)                                \
  ASC_TWIN_UNARY_L0(Name, uint64_t mask, Types, TypeText, Ftz, Expr)
#define ASC_TWIN_UNARY_L0(Name, MaskDecl, Types, TypeText, Ftz, Expr)                                               \
  template <typename T, bool isSetMask = true>                                                                      \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskDecl,                       \
                              const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {                    \
    static_assert(twin::kIsOneOf<T, ASC_TWIN_UNPACK Types>, #Name " supports " TypeText);                           \
    twin::UnaryLevel0<T, T, isSetMask>(#Name, dst, src, mask, repeatTime, repeatParams,                             \
                                       [](T x) { return twin::MathLane<T, Ftz>(x, [](auto v) { return Expr; }); }); \
  }
#define ASC_TWIN_UNPACK(...) __VA_ARGS__

ASC_TWIN_UNARY_API(Abs, (half, float), "half, float", false, std::fabs(v))
ASC_TWIN_UNARY_API(Relu, (half, int32_t, float), "half, int32_t, float", false, v > 0 ? v : decltype(v)(0))
ASC_TWIN_UNARY_API(Exp, (half, float), "half, float", true, std::exp(v))
ASC_TWIN_UNARY_API(Ln, (half, float), "half, float", true, std::log(v))
ASC_TWIN_UNARY_API(Sqrt, (half, float), "half, float", true, std::sqrt(v))
ASC_TWIN_UNARY_API(Rsqrt, (half, float), "half, float", true, decltype(v)(1) / std::sqrt(v))
ASC_TWIN_UNARY_API(Reciprocal, (half, float), "half, float", true, decltype(v)(1) / v)
ASC_TWIN_UNARY_API(Not, (int16_t, uint16_t), "int16_t, uint16_t", false, static_cast<decltype(v)>(~v))

#undef ASC_TWIN_UNPACK
#undef ASC_TWIN_UNARY_L0
#undef ASC_TWIN_UNARY_API

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_UNARY_INTF_H_

// Vector-scalar APIs: dst[i] = src[i] op scalar. Count form `Op(dst, src, scalar, count)`
// and level-0 forms `Op<T, isSetMask>(dst, src, scalar, mask[] | mask, repeatTime,
// UnaryRepeatParams)`, from one definition per op. The scalar is not used for template
// deduction, so `Muls(y, x, 0.5f, n)` works for half too.
#ifndef ASC_TWIN_KERNEL_OPERATOR_VEC_SCALAR_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_VEC_SCALAR_INTF_H_

#include "asc_twin/elementwise.h"

namespace AscendC {
namespace twin {
template <typename T, typename F>
inline auto ScalarLane(const typename NonDeduced<T>::type& scalarValue, F f) {
  const Wide<T> s = static_cast<Wide<T>>(scalarValue);
  return [s, f](T in) { return static_cast<T>(f(static_cast<Wide<T>>(in), s)); };
}
// Shift counts outside [0, bits) give 0 (left) or the sign fill (right) instead of C++ UB.
template <typename T, typename S>
inline T ShiftLeftOf(T x, S s) {
  const int64_t n = static_cast<int64_t>(s);
  if (n < 0 || n >= static_cast<int64_t>(sizeof(T) * 8)) return T(0);
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(x) << n);
}
template <typename T, typename S>
inline T ShiftRightOf(T x, S s) {
  int64_t n = static_cast<int64_t>(s);
  if (n < 0 || n >= static_cast<int64_t>(sizeof(T) * 8)) n = sizeof(T) * 8 - 1 + (std::is_signed<T>::value ? 0 : 1);
  if (n >= static_cast<int64_t>(sizeof(T) * 8)) return T(0);
  return static_cast<T>(x >> n);
}
}  // namespace twin

#define ASC_TWIN_SCALAR_API(Name, Types, TypeText, Expr)                                                           \
  template <typename T, bool isSetMask = true>                                                                     \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                \
                              const typename twin::NonDeduced<T>::type& scalarValue, const int32_t& count) {       \
    static_assert(twin::kIsOneOf<T, ASC_TWIN_UNPACK Types>, #Name " supports " TypeText);                          \
    twin::MapUnary(#Name, dst, src, count, twin::ScalarLane<T>(scalarValue, [](auto x, auto s) { return Expr; })); \
  }                                                                                                                \
  ASC_TWIN_SCALAR_L0(Name, const uint64_t mask[], Types, TypeText, Expr)                                           \
  ASC_TWIN_SCALAR_L0(Name, uint64_t mask, Types, TypeText, Expr)
#define ASC_TWIN_SCALAR_L0(Name, MaskDecl, Types, TypeText, Expr)                                              \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                            \
                              const typename twin::NonDeduced<T>::type& scalarValue, MaskDecl,                 \
                              const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {               \
    static_assert(twin::kIsOneOf<T, ASC_TWIN_UNPACK Types>, #Name " supports " TypeText);                      \
    twin::UnaryLevel0<T, T, isSetMask>(#Name, dst, src, mask, repeatTime, repeatParams,                        \
                                       twin::ScalarLane<T>(scalarValue, [](auto x, auto s) { return Expr; })); \
  }
#define ASC_TWIN_UNPACK(...) __VA_ARGS__

ASC_TWIN_SCALAR_API(Adds, (int16_t, half, int32_t, float), "int16_t, half, int32_t, float", twin::WrapAdd(x, s))
ASC_TWIN_SCALAR_API(Muls, (int16_t, half, int32_t, float), "int16_t, half, int32_t, float", twin::WrapMul(x, s))
ASC_TWIN_SCALAR_API(Maxs, (int16_t, half, int32_t, float), "int16_t, half, int32_t, float", x > s ? x : s)
ASC_TWIN_SCALAR_API(Mins, (int16_t, half, int32_t, float), "int16_t, half, int32_t, float", x < s ? x : s)
ASC_TWIN_SCALAR_API(LeakyRelu, (half, float), "half, float", x >= 0 ? x : x * s)
ASC_TWIN_SCALAR_API(ShiftLeft, (int16_t, uint16_t, int32_t, uint32_t), "int16_t, uint16_t, int32_t, uint32_t",
                    twin::ShiftLeftOf(x, s))
ASC_TWIN_SCALAR_API(ShiftRight, (int16_t, uint16_t, int32_t, uint32_t), "int16_t, uint16_t, int32_t, uint32_t",
                    twin::ShiftRightOf(x, s))

#undef ASC_TWIN_SCALAR_L0
#undef ASC_TWIN_SCALAR_API

namespace twin {
template <typename T>
constexpr bool kDupType = kIsOneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>;
}  // namespace twin

// dst[i] = scalar for i < count.
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const typename twin::NonDeduced<T>::type& scalarValue,
                                 const int32_t& count) {
  static_assert(twin::kDupType<T>, "Duplicate supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float");
  if (!twin::CheckCount("Duplicate", count)) return;
  twin::LevelTwoDone();
  twin::CheckUbOperand("Duplicate", "dst", dst, static_cast<uint32_t>(count));
  T* d = dst.TwinData();
  const T v = scalarValue;
  const uint32_t n = static_cast<uint32_t>(count);
  for (uint32_t i = 0; i < n; ++i) d[i] = v;
}

// Level-0 Duplicate: block and repeat strides of dst in 32-B blocks.
#define ASC_TWIN_DUPLICATE_L0(MaskDecl)                                                                              \
  template <typename T, bool isSetMask = true>                                                                       \
  __aicore__ inline void Duplicate(const LocalTensor<T>& dst, const typename twin::NonDeduced<T>::type& scalarValue, \
                                   MaskDecl, const uint8_t repeatTime, const uint16_t dstBlockStride,                \
                                   const uint8_t dstRepeatStride) {                                                  \
    static_assert(twin::kDupType<T>,                                                                                 \
                  "Duplicate supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float");               \
    const twin::Plan plan = twin::MakePlan<T, isSetMask>("Duplicate", mask, repeatTime);                             \
    const twin::Operand<T> none[1] = {twin::MakeOperand("Duplicate", "dst", dst, dstBlockStride, dstRepeatStride)};  \
    const T v = scalarValue;                                                                                         \
    twin::Level0Map("Duplicate", plan, none[0], none, [v](const T*) { return v; });                                  \
  }
ASC_TWIN_DUPLICATE_L0(const uint64_t mask[])
ASC_TWIN_DUPLICATE_L0(uint64_t mask)
#undef ASC_TWIN_DUPLICATE_L0
#undef ASC_TWIN_UNPACK

// dst = src * scalar + dst (Axpy; half and float, computed in float).
template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalarValue,
                            const int32_t& count) {
  static_assert(std::is_same<T, U>::value && twin::kIsOneOf<T, half, float>,
                "Axpy supports half and float with dst and src of one type");
  if (!twin::CheckCount("Axpy", count)) return;
  twin::LevelTwoDone();
  const twin::Plan plan = twin::CountPlan<T>(static_cast<uint32_t>(count));
  const float s = static_cast<float>(scalarValue);
  twin::WithDstMap("Axpy", plan, twin::MakeOperand("Axpy", "dst", dst, 1, 8),
                   twin::MakeOperand("Axpy", "src", src, 1, 8), twin::MakeOperand("Axpy", "src", src, 1, 8),
                   [s](auto d, auto a, auto) { return a * s + d; });
}

#define ASC_TWIN_AXPY_L0(MaskDecl)                                                                                 \
  template <typename T, typename U, bool isSetMask = true>                                                         \
  __aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalarValue, MaskDecl, \
                              const uint8_t repeatTime, const UnaryRepeatParams& p) {                              \
    static_assert(std::is_same<T, U>::value && twin::kIsOneOf<T, half, float>,                                     \
                  "Axpy supports half and float with dst and src of one type");                                    \
    const twin::Plan plan = twin::MakePlan<T, isSetMask>("Axpy", mask, repeatTime);                                \
    const float s = static_cast<float>(scalarValue);                                                               \
    const twin::Operand<T> d = twin::MakeOperand("Axpy", "dst", dst, p.dstBlkStride, p.dstRepStride);              \
    const twin::Operand<T> x = twin::MakeOperand("Axpy", "src", src, p.srcBlkStride, p.srcRepStride);              \
    twin::WithDstMap("Axpy", plan, d, x, x, [s](auto dv, auto a, auto) { return a * s + dv; });                    \
  }
ASC_TWIN_AXPY_L0(const uint64_t mask[])
ASC_TWIN_AXPY_L0(uint64_t mask)
#undef ASC_TWIN_AXPY_L0

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_SCALAR_INTF_H_

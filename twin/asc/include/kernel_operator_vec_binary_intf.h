// Count-form binary vector APIs: dst[i] = src0[i] op src1[i], i < count.
#ifndef ASC_TWIN_KERNEL_OPERATOR_VEC_BINARY_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_VEC_BINARY_INTF_H_

#include "asc_twin/elementwise.h"

namespace AscendC {
namespace twin {
template <typename T>
constexpr bool kArithType = kIsOneOf<T, int16_t, half, int32_t, float>;
template <typename T>
constexpr bool kFloatType = kIsOneOf<T, half, float>;
}  // namespace twin

template <typename T>
__aicore__ inline void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count) {
  static_assert(twin::kArithType<T>, "Add supports int16_t, half, int32_t, float");
  twin::MapBinary("Add", dst, src0, src1, count, [](auto a, auto b) { return twin::WrapAdd(a, b); });
}

template <typename T>
__aicore__ inline void Sub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count) {
  static_assert(twin::kArithType<T>, "Sub supports int16_t, half, int32_t, float");
  twin::MapBinary("Sub", dst, src0, src1, count, [](auto a, auto b) { return twin::WrapSub(a, b); });
}

template <typename T>
__aicore__ inline void Mul(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count) {
  static_assert(twin::kArithType<T>, "Mul supports int16_t, half, int32_t, float");
  twin::MapBinary("Mul", dst, src0, src1, count, [](auto a, auto b) { return twin::WrapMul(a, b); });
}

template <typename T>
__aicore__ inline void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count) {
  static_assert(twin::kFloatType<T>, "Div supports half, float");
  twin::MapBinary("Div", dst, src0, src1, count, [](auto a, auto b) { return a / b; });
}

template <typename T>
__aicore__ inline void Max(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count) {
  static_assert(twin::kArithType<T>, "Max supports int16_t, half, int32_t, float");
  twin::MapBinary("Max", dst, src0, src1, count, [](auto a, auto b) { return a > b ? a : b; });
}

template <typename T>
__aicore__ inline void Min(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count) {
  static_assert(twin::kArithType<T>, "Min supports int16_t, half, int32_t, float");
  twin::MapBinary("Min", dst, src0, src1, count, [](auto a, auto b) { return a < b ? a : b; });
}

// ---- whole-tensor expressions: dst = a + b etc. (count = dst.GetSize()) ----
namespace twin {
#define ASC_TWIN_EXPR_OP(Name, Api)                                                                   \
  struct Name {                                                                                       \
    template <typename T>                                                                             \
    static void Apply(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b,       \
                      int32_t n) {                                                                    \
      Api(d, a, b, n);                                                                                \
    }                                                                                                 \
  };
ASC_TWIN_EXPR_OP(ExprAdd, ::AscendC::Add)
ASC_TWIN_EXPR_OP(ExprSub, ::AscendC::Sub)
ASC_TWIN_EXPR_OP(ExprMul, ::AscendC::Mul)
ASC_TWIN_EXPR_OP(ExprDiv, ::AscendC::Div)
#undef ASC_TWIN_EXPR_OP
}  // namespace twin

template <typename T>
__aicore__ inline twin::TensorExpr<LocalTensor<T>, LocalTensor<T>, twin::ExprAdd> operator+(const LocalTensor<T>& a,
                                                                                             const LocalTensor<T>& b) {
  return {a, b};
}
template <typename T>
__aicore__ inline twin::TensorExpr<LocalTensor<T>, LocalTensor<T>, twin::ExprSub> operator-(const LocalTensor<T>& a,
                                                                                             const LocalTensor<T>& b) {
  return {a, b};
}
template <typename T>
__aicore__ inline twin::TensorExpr<LocalTensor<T>, LocalTensor<T>, twin::ExprMul> operator*(const LocalTensor<T>& a,
                                                                                             const LocalTensor<T>& b) {
  return {a, b};
}
template <typename T>
__aicore__ inline twin::TensorExpr<LocalTensor<T>, LocalTensor<T>, twin::ExprDiv> operator/(const LocalTensor<T>& a,
                                                                                             const LocalTensor<T>& b) {
  return {a, b};
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_BINARY_INTF_H_

// Binary vector APIs: dst[i] = src0[i] op src1[i]. Each API has the count (level-2) form
// `Op(dst, src0, src1, count)` and the two level-0 forms `Op<T, isSetMask>(dst, src0, src1,
// mask[] | mask, repeatTime, BinaryRepeatParams)` (mask semantics: kernel_operator_vec_mask_intf.h),
// all generated from one definition per op below.
#ifndef ASC_TWIN_KERNEL_OPERATOR_VEC_BINARY_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_VEC_BINARY_INTF_H_

#include <cmath>
#include <limits>

#include "asc_twin/deq_scale.h"
#include "asc_twin/elementwise.h"

namespace AscendC {
namespace twin {
template <typename T>
constexpr bool kArithType = kIsOneOf<T, int16_t, half, int32_t, float>;
template <typename T>
constexpr bool kFloatType = kIsOneOf<T, half, float>;
template <typename T>
constexpr bool kBitType = kIsOneOf<T, int16_t, uint16_t>;
template <typename T>
constexpr bool kReluType = kIsOneOf<T, int16_t, half, float>;

template <typename T>
inline T ReluOf(T x) {
  return x > T(0) ? x : T(0);
}
}  // namespace twin

#define ASC_TWIN_BINARY_API(Name, Pred, TypeText, Expr)                                                 \
  template <typename T>                                                                                 \
  __aicore__ ASC_TWIN_HOT inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,       \
                                           const LocalTensor<T>& src1, const int32_t& count) {          \
    static_assert(twin::Pred<T>, #Name " supports " TypeText);                                          \
    twin::MapBinary(#Name, dst, src0, src1, count, [](auto a, auto b) { return Expr; });                \
  }                                                                                                     \
  ASC_TWIN_BINARY_L0(Name, const uint64_t mask[], Pred, TypeText, BinaryLevel0, (auto a, auto b), Expr) \
  ASC_TWIN_BINARY_L0(Name, uint64_t mask, Pred, TypeText, BinaryLevel0, (auto a, auto b), Expr)
// Level-0 forms of a binary op; Impl is twin::BinaryLevel0 or twin::DstBinaryLevel0 (ops reading dst).
#define ASC_TWIN_BINARY_L0(Name, MaskDecl, Pred, TypeText, Impl, Params, Expr)                                    \
  template <typename T, bool isSetMask = true>                                                                    \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,  \
                              MaskDecl, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {       \
    static_assert(twin::Pred<T>, #Name " supports " TypeText);                                                    \
    twin::Impl<T, isSetMask>(#Name, dst, src0, src1, mask, repeatTime, repeatParams, [] Params { return Expr; }); \
  }

ASC_TWIN_BINARY_API(Add, kArithType, "int16_t, half, int32_t, float", twin::WrapAdd(a, b))
ASC_TWIN_BINARY_API(Sub, kArithType, "int16_t, half, int32_t, float", twin::WrapSub(a, b))
ASC_TWIN_BINARY_API(Mul, kArithType, "int16_t, half, int32_t, float", twin::WrapMul(a, b))
ASC_TWIN_BINARY_API(Div, kFloatType, "half, float", a / b)
ASC_TWIN_BINARY_API(Max, kArithType, "int16_t, half, int32_t, float", a > b ? a : b)
ASC_TWIN_BINARY_API(Min, kArithType, "int16_t, half, int32_t, float", a < b ? a : b)
ASC_TWIN_BINARY_API(And, kBitType, "int16_t, uint16_t", static_cast<decltype(a)>(a& b))
ASC_TWIN_BINARY_API(Or, kBitType, "int16_t, uint16_t", static_cast<decltype(a)>(a | b))
ASC_TWIN_BINARY_API(AddRelu, kReluType, "int16_t, half, float", twin::ReluOf(twin::WrapAdd(a, b)))
ASC_TWIN_BINARY_API(SubRelu, kReluType, "int16_t, half, float", twin::ReluOf(twin::WrapSub(a, b)))
#undef ASC_TWIN_BINARY_API

// Ops that also read dst: count form and both level-0 forms from one definition.
#define ASC_TWIN_DST_BINARY_API(Name, Pred, TypeText, Expr)                                                        \
  template <typename T>                                                                                            \
  __aicore__ ASC_TWIN_HOT inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,                  \
                                           const LocalTensor<T>& src1, const int32_t& count) {                     \
    static_assert(twin::Pred<T>, #Name " supports " TypeText);                                                     \
    if (!twin::CheckCount(#Name, count)) return;                                                                   \
    twin::LevelTwoDone();                                                                                          \
    const twin::Plan plan = twin::CountPlan<T>(static_cast<uint32_t>(count));                                      \
    twin::WithDstMap(#Name, plan, twin::MakeOperand(#Name, "dst", dst, 1, 8),                                      \
                     twin::MakeOperand(#Name, "src0", src0, 1, 8), twin::MakeOperand(#Name, "src1", src1, 1, 8),   \
                     [](auto d, auto a, auto b) { return Expr; });                                                 \
  }                                                                                                                \
  ASC_TWIN_BINARY_L0(Name, const uint64_t mask[], Pred, TypeText, DstBinaryLevel0, (auto d, auto a, auto b), Expr) \
  ASC_TWIN_BINARY_L0(Name, uint64_t mask, Pred, TypeText, DstBinaryLevel0, (auto d, auto a, auto b), Expr)

// dst = src0 * dst + src1; dst = src0 * src1 + dst; and with Relu. Computed in float for half
// (one rounding at the end).
ASC_TWIN_DST_BINARY_API(FusedMulAdd, kFloatType, "half, float", a* d + b)
ASC_TWIN_DST_BINARY_API(MulAddDst, kFloatType, "half, float", a* b + d)
ASC_TWIN_DST_BINARY_API(FusedMulAddRelu, kFloatType, "half, float", twin::ReluOf(a* d + b))
#undef ASC_TWIN_DST_BINARY_API
#undef ASC_TWIN_BINARY_L0

// ---- binary ops whose result is cast to a narrower type: dst(T) = cast(src0(U) op src1(U)) ----
// The op's result is rounded to U, then to T (nearest even, saturated to T's range; twin choice:
// CANN does not document the rounding of these fused casts). Lanes are counted in U.
namespace twin {
template <typename T, typename U>
constexpr bool kReluCastPair = (std::is_same<T, half>::value && std::is_same<U, float>::value) ||
                               (std::is_same<T, int8_t>::value && std::is_same<U, half>::value) ||
                               (std::is_same<T, int8_t>::value && std::is_same<U, int16_t>::value);
template <typename T, typename U>
constexpr bool kMulCastPair =
    (std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value) && std::is_same<U, half>::value;

template <typename T, typename W>
inline T NarrowRne(W v) {
  if constexpr (std::is_integral<T>::value) {
    const double r = std::nearbyint(static_cast<double>(v));
    if (std::isnan(r)) return T(0);
    if (r >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    if (r <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    return static_cast<T>(r);
  } else {
    return static_cast<T>(v);
  }
}

// dst(T) = g(src0, src1) per active lane, g taking the sources' values (in Wide<U>) to T.
template <typename T, typename U, typename G>
inline void BinaryToMap(const char* api, const Plan& plan, const LocalTensor<T>& dst, const LocalTensor<U>& src0,
                        const LocalTensor<U>& src1, const BinaryRepeatParams& p, G g) {
  const Operand<T> d = MakeOperand(api, "dst", dst, p.dstBlkStride, p.dstRepStride);
  const Operand<U> s[2] = {MakeOperand(api, "src0", src0, p.src0BlkStride, p.src0RepStride),
                           MakeOperand(api, "src1", src1, p.src1BlkStride, p.src1RepStride)};
  Level0Map(api, plan, d, s, [g](const U* v) { return g(static_cast<Wide<U>>(v[0]), static_cast<Wide<U>>(v[1])); });
}

template <typename T, typename U, typename F>
inline void BinaryCastMap(const char* api, const Plan& plan, const LocalTensor<T>& dst, const LocalTensor<U>& src0,
                          const LocalTensor<U>& src1, const BinaryRepeatParams& p, F f) {
  BinaryToMap(api, plan, dst, src0, src1, p, [f](Wide<U> a, Wide<U> b) {
    const U r = static_cast<U>(f(a, b));  // the op's result in U
    return NarrowRne<T>(static_cast<Wide<U>>(r));
  });
}

// Count form: contiguous operands (dst repeats are 256 / sizeof(U) elements of T apart).
template <typename T, typename U>
inline BinaryRepeatParams ContiguousCastParams() {
  return BinaryRepeatParams(1, 1, 1, static_cast<uint8_t>(kRepElems<U> * sizeof(T) / 32), 8, 8);
}
template <typename T, typename U, typename F>
inline void BinaryCastCount(const char* api, const LocalTensor<T>& dst, const LocalTensor<U>& src0,
                            const LocalTensor<U>& src1, uint32_t count, F f) {
  if (count == 0) return;
  LevelTwoDone();
  BinaryCastMap(api, CountPlan<U>(count), dst, src0, src1, ContiguousCastParams<T, U>(), f);
}

// AddDeqRelu: relu(deq(src0 + src1)), the int32 sum wrapping, deq by DEQSCALE (deq_scale.h).
inline half AddDeqReluLane(int32_t a, int32_t b) { return ReluOf(DeqToHalf(WrapAdd(a, b))); }
}  // namespace twin

__aicore__ inline void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<int32_t>& src0,
                                  const LocalTensor<int32_t>& src1, const int32_t& count) {
  if (!twin::CheckCount("AddDeqRelu", count)) return;
  twin::RequireDeqScale("AddDeqRelu");
  twin::LevelTwoDone();
  twin::BinaryToMap("AddDeqRelu", twin::CountPlan<int32_t>(static_cast<uint32_t>(count)), dst, src0, src1,
                    twin::ContiguousCastParams<half, int32_t>(), twin::AddDeqReluLane);
}
#define ASC_TWIN_ADD_DEQ_RELU_L0(MaskDecl)                                                                         \
  template <bool isSetMask = true>                                                                                 \
  __aicore__ inline void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<int32_t>& src0,                \
                                    const LocalTensor<int32_t>& src1, MaskDecl, const uint8_t repeatTime,          \
                                    const BinaryRepeatParams& repeatParams) {                                      \
    twin::RequireDeqScale("AddDeqRelu");                                                                           \
    twin::BinaryToMap("AddDeqRelu", twin::MakePlan<int32_t, isSetMask>("AddDeqRelu", mask, repeatTime), dst, src0, \
                      src1, repeatParams, twin::AddDeqReluLane);                                                   \
  }
ASC_TWIN_ADD_DEQ_RELU_L0(const uint64_t mask[])
ASC_TWIN_ADD_DEQ_RELU_L0(uint64_t mask)
#undef ASC_TWIN_ADD_DEQ_RELU_L0

#define ASC_TWIN_BINARY_CAST_API(Name, Pred, TypeText, Expr)                                                     \
  template <typename T, typename U, bool isSetMask = true>                                                       \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, \
                              const uint32_t count) {                                                            \
    static_assert(twin::Pred<T, U>, #Name " supports " TypeText);                                                \
    twin::BinaryCastCount(#Name, dst, src0, src1, count, [](auto a, auto b) { return Expr; });                   \
  }                                                                                                              \
  ASC_TWIN_BINARY_CAST_L0(Name, const uint64_t mask[], Pred, TypeText, Expr)                                     \
  ASC_TWIN_BINARY_CAST_L0(Name, uint64_t mask, Pred, TypeText, Expr)
#define ASC_TWIN_BINARY_CAST_L0(Name, MaskDecl, Pred, TypeText, Expr)                                                \
  template <typename T, typename U, bool isSetMask = true>                                                           \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,     \
                              MaskDecl, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {          \
    static_assert(twin::Pred<T, U>, #Name " supports " TypeText);                                                    \
    twin::BinaryCastMap(#Name, twin::MakePlan<U, isSetMask>(#Name, mask, repeatTime), dst, src0, src1, repeatParams, \
                        [](auto a, auto b) { return Expr; });                                                        \
  }
ASC_TWIN_BINARY_CAST_API(AddReluCast, kReluCastPair, "float->half, half->int8_t, int16_t->int8_t",
                         twin::ReluOf(twin::WrapAdd(a, b)))
ASC_TWIN_BINARY_CAST_API(SubReluCast, kReluCastPair, "float->half, half->int8_t, int16_t->int8_t",
                         twin::ReluOf(twin::WrapSub(a, b)))
ASC_TWIN_BINARY_CAST_API(MulCast, kMulCastPair, "half->int8_t, half->uint8_t", a* b)
#undef ASC_TWIN_BINARY_CAST_API
#undef ASC_TWIN_BINARY_CAST_L0

// ---- whole-tensor expressions: dst = a + b etc. (count = dst.GetSize()) ----
namespace twin {
#define ASC_TWIN_EXPR_OP(Name, Api)                                                                           \
  struct Name {                                                                                               \
    template <typename T>                                                                                     \
    static void Apply(const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b, int32_t n) { \
      Api(d, a, b, n);                                                                                        \
    }                                                                                                         \
  };
ASC_TWIN_EXPR_OP(ExprAdd, ::AscendC::Add)
ASC_TWIN_EXPR_OP(ExprSub, ::AscendC::Sub)
ASC_TWIN_EXPR_OP(ExprMul, ::AscendC::Mul)
ASC_TWIN_EXPR_OP(ExprDiv, ::AscendC::Div)
ASC_TWIN_EXPR_OP(ExprAnd, ::AscendC::And)
ASC_TWIN_EXPR_OP(ExprOr, ::AscendC::Or)
#undef ASC_TWIN_EXPR_OP
}  // namespace twin

#define ASC_TWIN_TENSOR_OPERATOR(op, Expr)                                                    \
  template <typename T>                                                                       \
  __aicore__ inline twin::TensorExpr<LocalTensor<T>, LocalTensor<T>, twin::Expr> operator op( \
      const LocalTensor<T>& a, const LocalTensor<T>& b) {                                     \
    return {a, b};                                                                            \
  }
ASC_TWIN_TENSOR_OPERATOR(+, ExprAdd)
ASC_TWIN_TENSOR_OPERATOR(-, ExprSub)
ASC_TWIN_TENSOR_OPERATOR(*, ExprMul)
ASC_TWIN_TENSOR_OPERATOR(/, ExprDiv)
ASC_TWIN_TENSOR_OPERATOR(&, ExprAnd)
ASC_TWIN_TENSOR_OPERATOR(|, ExprOr)
#undef ASC_TWIN_TENSOR_OPERATOR

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_BINARY_INTF_H_

// Count-form unary vector APIs. half is computed in float and rounded once;
// float uses the C library functions (Exp/Ln/Rsqrt within 1 ULP, Sqrt,
// Reciprocal correctly rounded). The NPU flushes subnormals to zero in
// Exp/Ln/...; the twin keeps them (see README).
#ifndef ASC_TWIN_KERNEL_OPERATOR_VEC_UNARY_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_VEC_UNARY_INTF_H_

#include <cmath>

#include "asc_twin/elementwise.h"

namespace AscendC {
namespace twin {
template <typename T, typename F>
inline void MapMath(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, F f) {
  MapUnary(api, dst, src, count, [f](T x) { return static_cast<T>(f(static_cast<Wide<T>>(x))); });
}
}  // namespace twin

#define ASC_TWIN_UNARY_API(Name, Types, TypeText, Expr)                                                \
  template <typename T>                                                                                \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) { \
    static_assert(twin::kIsOneOf<T, ASC_TWIN_UNPACK Types>, #Name " supports " TypeText);             \
    twin::MapMath(#Name, dst, src, count, [](auto x) { return Expr; });                                \
  }
#define ASC_TWIN_UNPACK(...) __VA_ARGS__

ASC_TWIN_UNARY_API(Abs, (half, float), "half, float", std::fabs(x))
ASC_TWIN_UNARY_API(Relu, (half, int32_t, float), "half, int32_t, float", x > 0 ? x : decltype(x)(0))
ASC_TWIN_UNARY_API(Exp, (half, float), "half, float", std::exp(x))
ASC_TWIN_UNARY_API(Ln, (half, float), "half, float", std::log(x))
ASC_TWIN_UNARY_API(Sqrt, (half, float), "half, float", std::sqrt(x))
ASC_TWIN_UNARY_API(Rsqrt, (half, float), "half, float", 1.0f / std::sqrt(x))
ASC_TWIN_UNARY_API(Reciprocal, (half, float), "half, float", 1.0f / x)

#undef ASC_TWIN_UNPACK
#undef ASC_TWIN_UNARY_API

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_UNARY_INTF_H_

// The engine under the element-wise high-level APIs (math library, activations): operand and
// temporary-buffer checks, then one loop that widens 16-bit floats to fp32, computes and rounds
// once to the destination type (round to nearest even), as the NPU's implementations do.
// The sharedTmpBuffer is only checked (the CPU keeps the fp32 intermediates in registers).
#ifndef ASC_TWIN_ADV_API_MATH_MATH_COMMON_IMPL_H_
#define ASC_TWIN_ADV_API_MATH_MATH_COMMON_IMPL_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "asc_twin/elementwise.h"
#include "kernel_tensor.h"
#include "kernel_tiling/asc_twin_tmp_sizes.h"

namespace AscendC {
namespace twin {
namespace adv {

template <typename T>
constexpr bool kIsAdvFloat =
    std::is_same<T, half>::value || std::is_same<T, float>::value || std::is_same<T, bfloat16_t>::value;

// A sharedTmpBuffer smaller than Get<api>MaxMinTmpSize's minimum for calCount elements traps.
template <typename T>
inline void CheckTmpBuffer(const char* api, const LocalTensor<uint8_t>& tmp, uint32_t fp32Nodes, uint32_t calCount) {
  CheckUbOperand(api, "sharedTmpBuffer", tmp, 0);
  const uint64_t need = asc_twin_tmp::MinTmpBytes(asc_twin_tmp::FloatNodes(sizeof(T), fp32Nodes), calCount, sizeof(T));
  if (tmp.GetSize() < need) {
    RaiseTrap(
        "%s: sharedTmpBuffer holds %u bytes, less than the %llu bytes %u elements need (the minimum of "
        "Get%sMaxMinTmpSize)",
        api, tmp.GetSize(), static_cast<unsigned long long>(need), calCount, api);
  }
}

// The operands of a call over calCount elements: each must be allocated, aligned and hold them.
template <typename T>
inline void CheckOperand(const char* api, const char* role, const LocalTensor<T>& t, uint32_t calCount) {
  CheckUbOperand(api, role, t, calCount);
}

// dst[i] = f(src[i]) computed in Wide<T> (fp32 for half/bfloat16_t).
template <typename D, typename S, typename F>
inline void Unary(const char* api, const LocalTensor<D>& dst, const LocalTensor<S>& src, uint32_t calCount, F f) {
  CheckOperand(api, "dstTensor", dst, calCount);
  CheckOperand(api, "srcTensor", src, calCount);
  LevelTwoDone();
  D* d = dst.TwinData();
  const S* s = src.TwinData();
  for (uint32_t i = 0; i < calCount; ++i) d[i] = static_cast<D>(f(static_cast<Wide<S>>(s[i])));
}

// dst[i] = f(a[i], b[i]) computed in Wide<T>.
template <typename D, typename S, typename F>
inline void Binary(const char* api, const LocalTensor<D>& dst, const LocalTensor<S>& a, const LocalTensor<S>& b,
                   uint32_t calCount, F f) {
  CheckOperand(api, "dstTensor", dst, calCount);
  CheckOperand(api, "src0Tensor", a, calCount);
  CheckOperand(api, "src1Tensor", b, calCount);
  LevelTwoDone();
  D* d = dst.TwinData();
  const S* x = a.TwinData();
  const S* y = b.TwinData();
  for (uint32_t i = 0; i < calCount; ++i) {
    d[i] = static_cast<D>(f(static_cast<Wide<S>>(x[i]), static_cast<Wide<S>>(y[i])));
  }
}

// digamma in fp32: reflection for x < 0.5 (psi(1 - x) - pi / tan(pi x)), the recurrence
// psi(x) = psi(x + 1) - 1 / x up to x >= 6, then the asymptotic series in 1 / x^2.
inline float DigammaF(float x) {
  if (std::isnan(x)) return x;
  if (x <= 0.0f && x == std::floor(x)) return std::nanf("");  // the poles
  float reflect = 0.0f;
  if (x < 0.5f) {
    const float pi = 3.14159265358979f;
    reflect = -pi / std::tan(pi * x);
    x = 1.0f - x;
  }
  float acc = 0.0f;
  while (x < 6.0f) {
    acc -= 1.0f / x;
    x += 1.0f;
  }
  const float r = 1.0f / (x * x);
  const float series = r * (1.0f / 12 - r * (1.0f / 120 - r * (1.0f / 252 - r * (1.0f / 240 - r / 132))));
  return reflect + acc + std::log(x) - 0.5f / x - series;
}

// An operand that is either a tensor (read per element) or a scalar (the same for all).
template <typename T, typename V>
struct ScalarOrTensor {
  static constexpr bool kIsTensor = false;
  static Wide<T> At(const V& v, uint32_t) { return static_cast<Wide<T>>(static_cast<T>(v)); }
  static void Check(const char*, const char*, const V&, uint32_t) {}
};
template <typename T, typename E>
struct ScalarOrTensor<T, LocalTensor<E>> {
  static constexpr bool kIsTensor = true;
  static Wide<T> At(const LocalTensor<E>& v, uint32_t i) { return static_cast<Wide<T>>(v.TwinData()[i]); }
  static void Check(const char* api, const char* role, const LocalTensor<E>& v, uint32_t n) {
    CheckUbOperand(api, role, v, n);
  }
};

}  // namespace adv
}  // namespace twin
}  // namespace AscendC

#define ASC_TWIN_UNPAREN(...) __VA_ARGS__

// The four call forms of a unary math API: (dst, src, sharedTmpBuffer, calCount),
// (dst, src, sharedTmpBuffer), (dst, src, calCount), (dst, src). TPL is the parenthesised
// template head, TARGS the arguments that forward it, the rest the function of one Wide<T>
// value; asc_twin_tmp::nodes::k<Name> sizes the minimum sharedTmpBuffer.
#define ASC_TWIN_ADV_UNARY_FORMS(Name, TPL, TARGS, ...)                                               \
  template <ASC_TWIN_UNPAREN TPL>                                                                     \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,       \
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) { \
    static_assert(twin::adv::kIsAdvFloat<T>, #Name " takes half, bfloat16_t or float");               \
    twin::adv::CheckTmpBuffer<T>(#Name, sharedTmpBuffer, asc_twin_tmp::nodes::k##Name, calCount);     \
    twin::adv::Unary(#Name, dstTensor, srcTensor, calCount, __VA_ARGS__);                             \
  }                                                                                                   \
  template <ASC_TWIN_UNPAREN TPL>                                                                     \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,       \
                              const LocalTensor<uint8_t>& sharedTmpBuffer) {                          \
    Name<ASC_TWIN_UNPAREN TARGS>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());         \
  }                                                                                                   \
  template <ASC_TWIN_UNPAREN TPL>                                                                     \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,       \
                              const uint32_t calCount) {                                              \
    static_assert(twin::adv::kIsAdvFloat<T>, #Name " takes half, bfloat16_t or float");               \
    twin::adv::Unary(#Name, dstTensor, srcTensor, calCount, __VA_ARGS__);                             \
  }                                                                                                   \
  template <ASC_TWIN_UNPAREN TPL>                                                                     \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {     \
    Name<ASC_TWIN_UNPAREN TARGS>(dstTensor, srcTensor, srcTensor.GetSize());                          \
  }

// template <typename T, bool isReuseSource = false>
#define ASC_TWIN_ADV_UNARY_API(Name, ...) \
  ASC_TWIN_ADV_UNARY_FORMS(Name, (typename T, bool isReuseSource = false), (T, isReuseSource), __VA_ARGS__)

// template <typename T, bool isReuseSource = false, const CfgT& config = cfgDefault>
#define ASC_TWIN_ADV_UNARY_API_CFG(Name, CfgT, cfgDefault, ...)                                             \
  ASC_TWIN_ADV_UNARY_FORMS(Name, (typename T, bool isReuseSource = false, const CfgT& config = cfgDefault), \
                           (T, isReuseSource, config), __VA_ARGS__)

#endif  // ASC_TWIN_ADV_API_MATH_MATH_COMMON_IMPL_H_

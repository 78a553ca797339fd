// Power: dst = base ^ exp, base and exp each a tensor or a scalar. Floats: fp32 powf (IEEE
// special cases: pow(x, 0) = 1, negative base with a non-integer exponent = nan); half and
// bfloat16_t widened and rounded once. int32_t/uint8_t/int8_t...: exact integer power with
// wrap-around, a negative exponent gives 0 unless |base| == 1 (integer division semantics).
#ifndef ASC_TWIN_ADV_API_MATH_POWER_H_
#define ASC_TWIN_ADV_API_MATH_POWER_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

enum class PowerAlgo {
  INTRINSIC = 0,
  DOUBLE_FLOAT_TECH,
};
struct PowerConfig {
  PowerAlgo algo = PowerAlgo::INTRINSIC;
};
constexpr PowerConfig defaultPowerConfig = {PowerAlgo::INTRINSIC};

namespace twin {
namespace adv {
template <typename T>
inline T IntPower(T base, T e) {
  using U = std::make_unsigned_t<T>;
  if constexpr (std::is_signed<T>::value) {
    if (e < 0) return base == 1 ? T(1) : (base == -1 ? ((e & 1) ? T(-1) : T(1)) : T(0));
  }
  U result = 1;
  U b = static_cast<U>(base);
  for (U k = static_cast<U>(e); k != 0; k >>= 1) {
    if (k & 1) result = static_cast<U>(result * b);
    b = static_cast<U>(b * b);
  }
  return static_cast<T>(result);
}

template <typename T, typename B, typename E>
inline void PowerImpl(const LocalTensor<T>& dst, const B& base, const E& exp, uint32_t count) {
  static_assert(kIsAdvFloat<T> || std::is_integral<T>::value, "Power takes half, bfloat16_t, float or integers");
  static_assert(ScalarOrTensor<T, B>::kIsTensor || ScalarOrTensor<T, E>::kIsTensor,
                "Power takes at least one tensor operand");
  CheckOperand("Power", "dstTensor", dst, count);
  ScalarOrTensor<T, B>::Check("Power", "src0Tensor", base, count);
  ScalarOrTensor<T, E>::Check("Power", "src1Tensor", exp, count);
  LevelTwoDone();
  T* d = dst.TwinData();
  for (uint32_t i = 0; i < count; ++i) {
    const auto b = ScalarOrTensor<T, B>::At(base, i);
    const auto e = ScalarOrTensor<T, E>::At(exp, i);
    if constexpr (std::is_integral<T>::value) {
      d[i] = IntPower<T>(b, e);
    } else {
      d[i] = static_cast<T>(std::pow(b, e));
    }
  }
}

// Integer powers keep one live node (GetPowerMaxMinTmpSize with typeIsInt), floats kPower.
template <typename T>
constexpr uint32_t PowerNodes() {
  return std::is_integral<T>::value ? 1 : asc_twin_tmp::nodes::kPower;
}

template <typename T, typename B, typename E>
inline uint32_t PowerCount(const B& base, const E& exp) {
  if constexpr (ScalarOrTensor<T, B>::kIsTensor)
    return base.GetSize();
  else
    return exp.GetSize();
}
}  // namespace adv
}  // namespace twin

#define ASC_TWIN_POWER_FORMS(B_DECL, E_DECL)                                                         \
  template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>  \
  __aicore__ inline void Power(const LocalTensor<T>& dstTensor, B_DECL, E_DECL,                      \
                               const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {     \
    twin::adv::CheckTmpBuffer<T>("Power", sharedTmpBuffer, twin::adv::PowerNodes<T>(), calCount);    \
    twin::adv::PowerImpl(dstTensor, src0, src1, calCount);                                           \
  }                                                                                                  \
  template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>  \
  __aicore__ inline void Power(const LocalTensor<T>& dstTensor, B_DECL, E_DECL, uint32_t calCount) { \
    twin::adv::PowerImpl(dstTensor, src0, src1, calCount);                                           \
  }                                                                                                  \
  template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>  \
  __aicore__ inline void Power(const LocalTensor<T>& dstTensor, B_DECL, E_DECL,                      \
                               const LocalTensor<uint8_t>& sharedTmpBuffer) {                        \
    const uint32_t n = twin::adv::PowerCount<T>(src0, src1);                                         \
    twin::adv::CheckTmpBuffer<T>("Power", sharedTmpBuffer, twin::adv::PowerNodes<T>(), n);           \
    twin::adv::PowerImpl(dstTensor, src0, src1, n);                                                  \
  }                                                                                                  \
  template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>  \
  __aicore__ inline void Power(const LocalTensor<T>& dstTensor, B_DECL, E_DECL) {                    \
    twin::adv::PowerImpl(dstTensor, src0, src1, twin::adv::PowerCount<T>(src0, src1));               \
  }

ASC_TWIN_POWER_FORMS(const LocalTensor<T>& src0, const LocalTensor<T>& src1)
ASC_TWIN_POWER_FORMS(const LocalTensor<T>& src0, const T& src1)
ASC_TWIN_POWER_FORMS(const T& src0, const LocalTensor<T>& src1)
#undef ASC_TWIN_POWER_FORMS

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_POWER_H_

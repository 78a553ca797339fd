// ClampMax (dst = min(src, scalar)), ClampMin (dst = max(src, scalar)) and Clamp (dst =
// min(max(src, min), max), each bound a tensor or a scalar). nan in src stays nan.
#ifndef ASC_TWIN_ADV_API_MATH_CLAMP_H_
#define ASC_TWIN_ADV_API_MATH_CLAMP_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

struct ClampConfig {
  bool isReuseSource;
};
constexpr ClampConfig DEFAULT_CLAMP_CONFIG = {false};

namespace twin {
namespace adv {
template <typename T>
inline Wide<T> ClampBelow(Wide<T> x, Wide<T> hi) {
  return x > hi ? hi : x;
}  // keeps nan
template <typename T>
inline Wide<T> ClampAbove(Wide<T> x, Wide<T> lo) {
  return x < lo ? lo : x;
}
}  // namespace adv
}  // namespace twin

template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount) {
  twin::adv::CheckTmpBuffer<T>("ClampMax", sharedTmpBuffer, asc_twin_tmp::nodes::kClamp, calCount);
  const twin::Wide<T> hi = static_cast<twin::Wide<T>>(scalar);
  twin::adv::Unary("ClampMax", dstTensor, srcTensor, calCount,
                   [hi](auto x) { return twin::adv::ClampBelow<T>(x, hi); });
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                                const uint32_t calCount) {
  const twin::Wide<T> hi = static_cast<twin::Wide<T>>(scalar);
  twin::adv::Unary("ClampMax", dstTensor, srcTensor, calCount,
                   [hi](auto x) { return twin::adv::ClampBelow<T>(x, hi); });
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount) {
  twin::adv::CheckTmpBuffer<T>("ClampMin", sharedTmpBuffer, asc_twin_tmp::nodes::kClamp, calCount);
  const twin::Wide<T> lo = static_cast<twin::Wide<T>>(scalar);
  twin::adv::Unary("ClampMin", dstTensor, srcTensor, calCount,
                   [lo](auto x) { return twin::adv::ClampAbove<T>(x, lo); });
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                                const uint32_t calCount) {
  const twin::Wide<T> lo = static_cast<twin::Wide<T>>(scalar);
  twin::adv::Unary("ClampMin", dstTensor, srcTensor, calCount,
                   [lo](auto x) { return twin::adv::ClampAbove<T>(x, lo); });
}

// min and max: each a LocalTensor<T> or a scalar of T.
template <const ClampConfig& config = DEFAULT_CLAMP_CONFIG, typename T, typename U, typename S>
__aicore__ inline void Clamp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& min, const S& max,
                             const uint32_t count) {
  using Lo = twin::adv::ScalarOrTensor<T, U>;
  using Hi = twin::adv::ScalarOrTensor<T, S>;
  twin::adv::CheckOperand("Clamp", "dst", dst, count);
  twin::adv::CheckOperand("Clamp", "src", src, count);
  Lo::Check("Clamp", "min", min, count);
  Hi::Check("Clamp", "max", max, count);
  twin::LevelTwoDone();
  T* d = dst.TwinData();
  const T* s = src.TwinData();
  for (uint32_t i = 0; i < count; ++i) {
    const auto x = twin::adv::ClampAbove<T>(static_cast<twin::Wide<T>>(s[i]), Lo::At(min, i));
    d[i] = static_cast<T>(twin::adv::ClampBelow<T>(x, Hi::At(max, i)));
  }
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_CLAMP_H_

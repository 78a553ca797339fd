// Where: dst[i] = condition[i] ? src0[i] : src1[i]; src0 and src1 each a LocalTensor<T> or a
// scalar of T, condition a LocalTensor<bool> (or uint8_t: non-zero selects src0).
#ifndef ASC_TWIN_ADV_API_MATH_WHERE_H_
#define ASC_TWIN_ADV_API_MATH_WHERE_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

template <typename T, typename U, typename S, typename V>
__aicore__ inline void Where(const LocalTensor<T>& dst, const U& src0, const S& src1, const LocalTensor<V>& condition,
                             const uint32_t count) {
  static_assert(sizeof(V) == 1, "Where: condition is a LocalTensor<bool> or <uint8_t>");
  using A = twin::adv::ScalarOrTensor<T, U>;
  using B = twin::adv::ScalarOrTensor<T, S>;
  twin::adv::CheckOperand("Where", "dst", dst, count);
  A::Check("Where", "src0", src0, count);
  B::Check("Where", "src1", src1, count);
  twin::adv::CheckOperand("Where", "condition", condition, count);
  twin::LevelTwoDone();
  T* d = dst.TwinData();
  const uint8_t* c = reinterpret_cast<const uint8_t*>(condition.TwinData());
  for (uint32_t i = 0; i < count; ++i) d[i] = static_cast<T>(c[i] != 0 ? A::At(src0, i) : B::At(src1, i));
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_WHERE_H_

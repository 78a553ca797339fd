// Atomic mode of UB -> GM moves (DataCopy, DataCopyPad): SetAtomicAdd/Max/Min<T>() until
// SetAtomicNone(). Per block, like the NPU's per-core mode; see asc_twin/atomic_gm.h.
#ifndef ASC_TWIN_KERNEL_OPERATOR_ATOMIC_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_ATOMIC_INTF_H_

#include "asc_twin/atomic_gm.h"

namespace AscendC {
namespace twin {
template <typename T>
constexpr bool kAtomicType = kIsOneOf<T, float, half, bfloat16_t, int32_t, int16_t, int8_t>;
}  // namespace twin

template <typename T>
__aicore__ inline void SetAtomicAdd() {
  static_assert(twin::kAtomicType<T>, "SetAtomicAdd supports float, half, bfloat16_t, int32_t, int16_t, int8_t");
  twin::StartAccumulating();
  twin::Block().vec.atomicOp = twin::kAtomicAdd;
}
template <typename T>
__aicore__ inline void SetAtomicMax() {
  static_assert(twin::kAtomicType<T>, "SetAtomicMax supports float, half, bfloat16_t, int32_t, int16_t, int8_t");
  twin::StartAccumulating();
  twin::Block().vec.atomicOp = twin::kAtomicMax;
}
template <typename T>
__aicore__ inline void SetAtomicMin() {
  static_assert(twin::kAtomicType<T>, "SetAtomicMin supports float, half, bfloat16_t, int32_t, int16_t, int8_t");
  twin::StartAccumulating();
  twin::Block().vec.atomicOp = twin::kAtomicMin;
}
__aicore__ inline void SetAtomicNone() { twin::Block().vec.atomicOp = twin::kAtomicNone; }
// CANN's newer name for SetAtomicNone: UB -> GM moves store plainly again.
__aicore__ inline void DisableDmaAtomic() { SetAtomicNone(); }

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_ATOMIC_INTF_H_

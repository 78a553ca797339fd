// Vector mask state of the level-0 (mask/repeat) APIs: Normal vs Counter mask mode,
// SetVectorMask, ResetMask. The state is per block (thread_local, asc_twin/vec_regs.h).
//
// Normal mode: each level-0 call runs `repeatTimes` repeats of 256 bytes; lane i of a
// repeat (element i of the repeat, i < 256 / sizeof(T)) takes part when mask bit i is set
// (bits 0..63 = maskLow / mask[0], 64..127 = maskHigh / mask[1]; a continuous mask n sets
// bits 0..n-1). Counter mode: the mask is an element count; the call runs
// ceil(count / elementsPerRepeat) repeats, the last one partial, and ignores repeatTimes.
// A level-0 call with isSetMask = true writes the mask register; with isSetMask = false it
// uses the register (pass MASK_PLACEHOLDER). A level-2 (count) call leaves Normal mode
// with a full mask, as CANN's count forms do.
#ifndef ASC_TWIN_KERNEL_OPERATOR_VEC_MASK_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_VEC_MASK_INTF_H_

#include <cstdint>

#include "asc_twin/block_state.h"
#include "kernel_type.h"

namespace AscendC {

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER = 1 };

constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};
constexpr int32_t FULL_MASK_LEN = 128;
constexpr int32_t HLAF_MASK_LEN = 64;  // CANN's spelling
constexpr int32_t HALF_MASK_LEN = 64;

__aicore__ inline void SetMaskCount() { twin::Block().vec.counterMode = true; }
__aicore__ inline void SetMaskNorm() { twin::Block().vec.counterMode = false; }

template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ static inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
  twin::VecRegs& v = twin::Block().vec;
  if (mode == MaskMode::COUNTER || v.counterMode) {
    v.maskHigh = 0;
    v.maskLow = maskLow;
  } else {
    v.maskHigh = sizeof(T) >= 4 ? 0 : maskHigh;
    v.maskLow = maskLow;
  }
}

// Normal mode: the first `len` lanes (len in [0, 128]); Counter mode: `len` elements.
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ static inline void SetVectorMask(int32_t len) {
  twin::VecRegs& v = twin::Block().vec;
  if (mode == MaskMode::COUNTER || v.counterMode) {
    if (len < 0) twin::RaiseTrap("SetVectorMask: count %d is negative", len);
    v.maskHigh = 0;
    v.maskLow = static_cast<uint64_t>(len);
    return;
  }
  if (len < 0 || len > 128) twin::RaiseTrap("SetVectorMask: len %d is outside [0, 128]", len);
  v.maskLow = len >= 64 ? ~0ull : ((1ull << len) - 1);
  v.maskHigh = len >= 128 ? ~0ull : (len > 64 ? ((1ull << (len - 64)) - 1) : 0);
}

// All lanes on (Normal mode).
__aicore__ inline void ResetMask() {
  twin::VecRegs& v = twin::Block().vec;
  v.maskHigh = ~0ull;
  v.maskLow = ~0ull;
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_MASK_INTF_H_

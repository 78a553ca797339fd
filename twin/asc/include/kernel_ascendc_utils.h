// AscendC::AscendCUtils: the static helpers CANN's kernels and samples call on the class
// (SetOverflow around computations that may overflow, the bit/C0 size helpers).
//
// SetOverflow(1) puts the NPU's vector unit into IEEE inf/NaN mode for float overflow,
// SetOverflow(0) back into saturation mode. The twin's float arithmetic always produces IEEE
// results (inf/NaN), so the mode is validated and remembered (per block thread) but changes no result; that
// is written in twin/asc/README.md ("What differs from CANN").
#ifndef ASC_TWIN_KERNEL_ASCENDC_UTILS_H_
#define ASC_TWIN_KERNEL_ASCENDC_UTILS_H_

#include <cstdint>

#include "asc_twin/trap.h"
#include "kernel_macros.h"
#include "kernel_type.h"

namespace AscendC {

class AscendCUtils {
 public:
  __aicore__ static inline void SetOverflow(uint64_t ctrlValue) {
    if (ctrlValue > 1) {
      twin::RaiseTrap("AscendCUtils::SetOverflow: ctrlValue %llu is neither 0 (saturation) nor 1 (inf/nan)",
                      static_cast<unsigned long long>(ctrlValue));
    }
    OverflowMode() = static_cast<uint8_t>(ctrlValue);
  }
  // The mode last set on this block's thread (twin helper, for tests).
  static uint64_t TwinOverflowMode() { return OverflowMode(); }

  __aicore__ static inline constexpr int32_t GetBitSize(int32_t byteSize) { return byteSize * 8; }
  __aicore__ static inline constexpr int32_t GetC0Size() { return static_cast<int32_t>(ONE_BLK_SIZE); }
  __aicore__ static inline constexpr int32_t GetC0Count(const int32_t dtypeSize) {
    return static_cast<int32_t>(ONE_BLK_SIZE) / dtypeSize;
  }

 private:
  static uint8_t& OverflowMode() {
    static thread_local uint8_t mode = 0;  // saturation, the NPU's reset state
    return mode;
  }
};

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_ASCENDC_UTILS_H_

// The DEQSCALE register of the quantisation paths that SetDeqScale(half) feeds: Cast
// int32_t->half and AddDeqRelu. Per block (VecRegs), unset when a block starts; using it unset
// traps (on the NPU it would scale by whatever the register held).
//
// Dequantisation of an int32 value x: CANN documents it as x / 2^17 * DeqScale * 2^17 (the
// power-of-two scaling keeps the product in range). The twin computes float(x) * float(scale)
// (x rounded to float to nearest even, the power-of-two steps exact in float) and rounds the
// product once to half, nearest even, overflowing to +-inf like its other float->half
// conversions: CANN does not document the intermediate precision.
#ifndef ASC_TWIN_DEQ_SCALE_H_
#define ASC_TWIN_DEQ_SCALE_H_

#include <cstdint>

#include "asc_twin/block_state.h"
#include "asc_twin/float_bits.h"
#include "asc_twin/trap.h"
#include "kernel_type.h"

namespace AscendC {
namespace twin {

inline void RequireDeqScale(const char* api) {
  if (!Block().vec.deqScaleSet) {
    RaiseTrap("%s: the DEQSCALE register is unset: call SetDeqScale(half scale) first", api);
  }
}

// x dequantised with the register's scale (RequireDeqScale checked by the caller).
inline half DeqToHalf(int32_t x) {
  const float scale = HalfToFloat(Block().vec.deqScaleBits);
  return half::FromBits(FloatToHalf(static_cast<float>(x) * scale));
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_DEQ_SCALE_H_

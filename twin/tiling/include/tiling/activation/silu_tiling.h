// Host tmp-size functions of the Silu high-level API (max: one pass; min: the least the kernel accepts).
#ifndef ASC_TWIN_TILING_ACTIVATION_SILU_TILING_H_
#define ASC_TWIN_TILING_ACTIVATION_SILU_TILING_H_

#include <cstdint>

#include "register/tilingdata_base.h"  // CANN's header brings it: samples rely on it
#include "tiling/utils/types.h"

namespace AscendC {

void GetSiluTmpSize(const AscendC::TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                    uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_ACTIVATION_SILU_TILING_H_

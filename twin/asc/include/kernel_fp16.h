// Software IEEE binary16 `half` (global namespace, like CANN's CPU debug
// headers). See asc_twin/soft_float16.h for rounding and mixed arithmetic.
#ifndef ASC_TWIN_KERNEL_FP16_H_
#define ASC_TWIN_KERNEL_FP16_H_

#include "asc_twin/soft_float16.h"

using half = AscendC::twin::SoftFloat16<AscendC::twin::HalfFormat>;
static_assert(sizeof(half) == 2 && alignof(half) == 2, "half must be 2 bytes");

#endif  // ASC_TWIN_KERNEL_FP16_H_

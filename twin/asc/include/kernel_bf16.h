// Software bfloat16 `bfloat16_t` (global namespace; CANN: bfloat16::Bf16T).
#ifndef ASC_TWIN_KERNEL_BF16_H_
#define ASC_TWIN_KERNEL_BF16_H_

#include "asc_twin/soft_float16.h"

namespace bfloat16 {
using Bf16T = AscendC::twin::SoftFloat16<AscendC::twin::Bf16Format>;
}  // namespace bfloat16
using bfloat16_t = bfloat16::Bf16T;
static_assert(sizeof(bfloat16_t) == 2 && alignof(bfloat16_t) == 2, "bfloat16_t must be 2 bytes");

#endif  // ASC_TWIN_KERNEL_BF16_H_

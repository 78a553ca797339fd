// AscendC::ReducePattern, written once for the kernel side (Normalize's config) and the host
// tiling side (the reduce APIs' tmp-size functions). CANN guards it with
// ASCC_ENUM_REDUCEPATTERN so that any header may bring it.
#ifndef ASC_TWIN_KERNEL_TILING_REDUCE_PATTERN_H_
#define ASC_TWIN_KERNEL_TILING_REDUCE_PATTERN_H_

#include <cstdint>

namespace AscendC {

#ifndef ASCC_ENUM_REDUCEPATTERN
#define ASCC_ENUM_REDUCEPATTERN
// One letter per source dimension: R reduced, A kept (CANN's values).
enum class ReducePattern : uint32_t {
  AR = 0,
  RA = 1,
  R,
  ARA,
  ARAR,
  ARARA,
  ARARAR,
  ARARARA,
  ARARARAR,
  ARARARARA,
  RAR,
  RARA,
  RARAR,
  RARARA,
  RARARAR,
  RARARARA,
};
#endif  // ASCC_ENUM_REDUCEPATTERN

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_TILING_REDUCE_PATTERN_H_

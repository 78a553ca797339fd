// adv_api/normalization/normalize_utils.h: Normalize's configuration and parameters (CANN's).
#ifndef ASC_TWIN_ADV_API_NORMALIZATION_NORMALIZE_UTILS_H_
#define ASC_TWIN_ADV_API_NORMALIZATION_NORMALIZE_UTILS_H_

#include <cstdint>

#include "kernel_tiling/reduce_pattern.h"

namespace AscendC {

struct NormalizeConfig {
  ReducePattern reducePattern = ReducePattern::AR;
  int32_t aLength = -1;  // -1: NormalizePara's aLength
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;  // no rstd output
};

constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};

struct NormalizePara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_NORMALIZATION_NORMALIZE_UTILS_H_

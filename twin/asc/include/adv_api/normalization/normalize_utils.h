// adv_api/normalization/normalize_utils.h: Normalize's configuration and parameters (CANN's).
#ifndef ASC_TWIN_ADV_API_NORMALIZATION_NORMALIZE_UTILS_H_
#define ASC_TWIN_ADV_API_NORMALIZATION_NORMALIZE_UTILS_H_

#include <cstdint>

namespace AscendC {

// Shared with the reduce APIs; CANN guards it so that either header may define it.
#ifndef ASCC_ENUM_REDUCEPATTERN
#define ASCC_ENUM_REDUCEPATTERN
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

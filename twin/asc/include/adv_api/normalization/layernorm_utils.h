// adv_api/normalization/layernorm_utils.h: LayerNorm's and WelfordUpdate's parameter and
// configuration structs, with CANN's names, members and defaults.
#ifndef ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORM_UTILS_H_
#define ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORM_UTILS_H_

#include <cstdint>

#include "kernel_macros.h"

namespace AscendC {

struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;  // no mean / rstd outputs
  bool isOutputRstd = true;   // the second statistic is rstd (false: the variance)
};

constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};

struct WelfordUpdateConfig {
  __aicore__ constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
  bool isInplace = false;  // elements past abComputeLength: outputs take the inputs' values
};

constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

struct LayerNormPara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};

struct WelfordUpdateParam {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t abComputeLength;
  float nRec;
};

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORM_UTILS_H_

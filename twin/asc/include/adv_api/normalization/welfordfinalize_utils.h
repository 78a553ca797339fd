// adv_api/normalization/welfordfinalize_utils.h: WelfordFinalize's parameters and configuration
// (CANN's members; rRecWithCorrection exists for the 3510 architecture only, as in CANN).
#ifndef ASC_TWIN_ADV_API_NORMALIZATION_WELFORDFINALIZE_UTILS_H_
#define ASC_TWIN_ADV_API_NORMALIZATION_WELFORDFINALIZE_UTILS_H_

#include <cstdint>

#include "kernel_macros.h"

namespace AscendC {

struct WelfordFinalizeConfig {
  __aicore__ constexpr WelfordFinalizeConfig(const bool isCorrectionIn) : isCorrection(isCorrectionIn) {}
  bool isCorrection = false;  // variance with Bessel's correction (rRecWithCorrection)
};

constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};

struct WelfordFinalizePara {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t headCount;
  uint32_t headCountLength;
  uint32_t tailCount;
  uint32_t tailCountLength;
  float abRec;
  float rRec;
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102)
  float rRecWithCorrection;
#endif
};

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_NORMALIZATION_WELFORDFINALIZE_UTILS_H_

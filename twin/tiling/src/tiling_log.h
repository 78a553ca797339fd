// The one line a tiling function writes when its input is bad: module "ASCENDC" of the plog
// (twin/common/log), "<function>: <cause>".
#ifndef ASC_TWIN_TILING_SRC_TILING_LOG_H_
#define ASC_TWIN_TILING_SRC_TILING_LOG_H_

#include "twin/common/log/log.h"

#define ASC_TWIN_TILING_ERROR(...) ASCEND_TWIN_LOGE("ASCENDC", __VA_ARGS__)

#endif  // ASC_TWIN_TILING_SRC_TILING_LOG_H_

// adv_api/normalization/layernormgrad_utils.h: LayerNormGrad's shape info (CANN's).
#ifndef ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORMGRAD_UTILS_H_
#define ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORMGRAD_UTILS_H_

#include "adv_api/activation/softmax_utils.h"

namespace AscendC {

struct LayerNormGradShapeInfo {
  DataFormat dataFormat = DataFormat::ND;
};

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORMGRAD_UTILS_H_

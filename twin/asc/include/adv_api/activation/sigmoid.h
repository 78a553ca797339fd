// Sigmoid: dst = 1 / (1 + e^-x), fp32 inside, rounded once.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_SIGMOID_H_
#define ASC_TWIN_ADV_API_ACTIVATION_SIGMOID_H_

#include "adv_api/activation/activation_impl.h"

namespace AscendC {

ASC_TWIN_ADV_UNARY_API(Sigmoid, [](float x) { return twin::adv::SigmoidF(x); })

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_SIGMOID_H_

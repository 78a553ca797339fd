/* Prototype of LeakyReluCustom, for graph builders and the OPP proto library. */
#ifndef OPS_LEAKY_RELU_CUSTOM_PROTO_LEAKY_RELU_CUSTOM_H_
#define OPS_LEAKY_RELU_CUSTOM_PROTO_LEAKY_RELU_CUSTOM_H_

#include "graph/operator_reg.h"

namespace ge {
/* y = x if x >= 0 else x * negative_slope, elementwise, float16 or float32; y has x's shape and type. */
REG_OP(LeakyReluCustom)
    .INPUT(x, TensorType({DT_FLOAT16, DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT16, DT_FLOAT}))
    .ATTR(negative_slope, Float, 0.01)
    .OP_END_FACTORY_REG(LeakyReluCustom)
}  // namespace ge

#endif  // OPS_LEAKY_RELU_CUSTOM_PROTO_LEAKY_RELU_CUSTOM_H_

/* Prototype of RmsNormCustom, for graph builders and the OPP proto library. */
#ifndef OPS_RMS_NORM_CUSTOM_PROTO_RMS_NORM_CUSTOM_H_
#define OPS_RMS_NORM_CUSTOM_PROTO_RMS_NORM_CUSTOM_H_

#include "graph/operator_reg.h"

namespace ge {
/* y = x / sqrt(mean(x^2 over H) + epsilon) * gamma: x [B, S, H] and gamma [H] of one dtype, float16
 * or float32, format ND; y has x's shape and dtype. */
REG_OP(RmsNormCustom)
    .INPUT(x, T)
    .INPUT(gamma, T)
    .OUTPUT(y, T)
    .ATTR(epsilon, Float, 1e-6)
    .DATATYPE(T, TensorType({DT_FLOAT16, DT_FLOAT}))
    .OP_END_FACTORY_REG(RmsNormCustom)
}  // namespace ge

#endif  // OPS_RMS_NORM_CUSTOM_PROTO_RMS_NORM_CUSTOM_H_

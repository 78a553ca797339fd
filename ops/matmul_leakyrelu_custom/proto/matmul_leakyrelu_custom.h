/* Prototype of MatmulLeakyReluCustom, for graph builders and the OPP proto library. */
#ifndef OPS_MATMUL_LEAKYRELU_CUSTOM_PROTO_MATMUL_LEAKYRELU_CUSTOM_H_
#define OPS_MATMUL_LEAKYRELU_CUSTOM_PROTO_MATMUL_LEAKYRELU_CUSTOM_H_

#include "graph/operator_reg.h"

namespace ge {
/* c = LeakyRelu(a @ b + bias, negative_slope): a [M, K] and b [K, N] float16, bias [N] float32,
 * c [M, N] float32. */
REG_OP(MatmulLeakyReluCustom)
    .INPUT(a, TensorType({DT_FLOAT16}))
    .INPUT(b, TensorType({DT_FLOAT16}))
    .INPUT(bias, TensorType({DT_FLOAT}))
    .OUTPUT(c, TensorType({DT_FLOAT}))
    .ATTR(negative_slope, Float, 0.01)
    .OP_END_FACTORY_REG(MatmulLeakyReluCustom)
}  // namespace ge

#endif  // OPS_MATMUL_LEAKYRELU_CUSTOM_PROTO_MATMUL_LEAKYRELU_CUSTOM_H_

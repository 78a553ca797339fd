/* Prototypes of AddNScaledCustom and MulHostCustom, for graph builders and the OPP proto library. */
#ifndef OPS_ADD_N_SCALED_CUSTOM_PROTO_ADD_N_SCALED_CUSTOM_H_
#define OPS_ADD_N_SCALED_CUSTOM_PROTO_ADD_N_SCALED_CUSTOM_H_

#include "graph/operator_reg.h"

namespace ge {
/* y = scale * (x0 + ... + x{N-1}) for N >= 1 float32 inputs of one shape; y has that shape. */
REG_OP(AddNScaledCustom)
    .DYNAMIC_INPUT(x, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .REQUIRED_ATTR(scale, Float)
    .OP_END_FACTORY_REG(AddNScaledCustom)

    /* y = x1 * x2, elementwise, float32 of one shape: an op run by a host-CPU kernel
     * (register_kernel(backend=OpBackend.HOST)); GE copies its inputs to the host and y back. */
    REG_OP(MulHostCustom)
    .INPUT(x1, TensorType({DT_FLOAT}))
    .INPUT(x2, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(MulHostCustom)
}  // namespace ge

#endif  // OPS_ADD_N_SCALED_CUSTOM_PROTO_ADD_N_SCALED_CUSTOM_H_

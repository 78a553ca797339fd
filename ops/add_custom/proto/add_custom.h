/* Prototype of the sample custom operator, for graph builders and the OPP proto library. */
#ifndef OPS_ADD_CUSTOM_PROTO_ADD_CUSTOM_H_
#define OPS_ADD_CUSTOM_PROTO_ADD_CUSTOM_H_

#include "graph/operator_reg.h"

namespace ge {
/* y = x1 + x2, elementwise; x1 and x2 have the same shape. */
REG_OP(PythonCompilableAddCustom)
    .INPUT(x1, T)
    .INPUT(x2, T)
    .OUTPUT(y, T)
    .DATATYPE(T, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(PythonCompilableAddCustom)
}  // namespace ge

#endif  // OPS_ADD_CUSTOM_PROTO_ADD_CUSTOM_H_

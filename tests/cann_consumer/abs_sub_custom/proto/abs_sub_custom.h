/* Operator prototype of AbsSubCustom: y = |x1 - x2|, float32, equal shapes. */
#ifndef ABS_SUB_CUSTOM_PROTO_H_
#define ABS_SUB_CUSTOM_PROTO_H_

#include "graph/operator_reg.h"

namespace ge {
REG_OP(AbsSubCustom)
    .INPUT(x1, TensorType({DT_FLOAT}))
    .INPUT(x2, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(AbsSubCustom)
}  // namespace ge

#endif  // ABS_SUB_CUSTOM_PROTO_H_

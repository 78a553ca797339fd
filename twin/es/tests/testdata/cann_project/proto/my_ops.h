#ifndef MY_OPS_H_
#define MY_OPS_H_

#include "graph/operator_reg.h"

namespace ge {
REG_OP(PythonCompilableAddCustom)
    .INPUT(x1, T)
    .INPUT(x2, T)
    .OUTPUT(y, T)
    .DATATYPE(T, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(PythonCompilableAddCustom)

        REG_OP(ConcatN)
    .DYNAMIC_INPUT(x, TensorType::ALL())
    .OPTIONAL_INPUT(bias, TensorType::ALL())
    .OUTPUT(y, TensorType::ALL())
    .REQUIRED_ATTR(axis, Int)
    .ATTR(scale, Float, 1.0)
    .ATTR(mode, String, "fast")
    .ATTR(perm, ListInt, {0, 1})
    .OP_END_FACTORY_REG(ConcatN)

        REG_OP(ExcludedOp)
    .INPUT(x, TensorType::ALL())
    .OUTPUT(y, TensorType::ALL())
    .OP_END_FACTORY_REG(ExcludedOp)
}  // namespace ge

#endif  // MY_OPS_H_

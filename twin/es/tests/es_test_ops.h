// Prototypes of the ES tests: optional/dynamic inputs and outputs, every attr type the twin's
// REG_OP supports, and names that are C++ or Python keywords.
#ifndef TWIN_ES_TESTS_ES_TEST_OPS_H_
#define TWIN_ES_TESTS_ES_TEST_OPS_H_

#include <cmath>

#include "graph/operator_reg.h"

namespace ge {
REG_OP(PythonCompilableAddCustom)
    .INPUT(x1, T)
    .INPUT(x2, T)
    .OUTPUT(output0, T)
    .DATATYPE(T, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(PythonCompilableAddCustom)

        REG_OP(Scale)
    .INPUT(x, TensorType::ALL())
    .OUTPUT(y, TensorType::ALL())
    .ATTR(alpha, Float, 2.0)
    .REQUIRED_ATTR(axes, ListInt)
    .ATTR(dst, Type, DT_FLOAT16)
    .OP_END_FACTORY_REG(Scale)

    // Output xs and attr bias share input names (ref_xs / attr_bias); lambda is a Python keyword.
    REG_OP(Gather)
    .DYNAMIC_INPUT(xs, TensorType::ALL())
    .OPTIONAL_INPUT(bias, TensorType::ALL())
    .INPUT(lambda, TensorType::ALL())
    .DYNAMIC_OUTPUT(ys, TensorType::ALL())
    .OUTPUT(xs, TensorType::ALL())
    .ATTR(bias, Int, 0)
    .OP_END_FACTORY_REG(Gather)

    // Every attr type; default/class/for are C++ keywords, from/in Python keywords.
    REG_OP(AllAttrs)
    .INPUT(x, TensorType::ALL())
    .OPTIONAL_INPUT(default, TensorType::ALL())
    .OUTPUT(y, TensorType::ALL())
    .REQUIRED_ATTR(class, Int)
    .REQUIRED_ATTR(from, ListListInt)
    .ATTR(f, Float, 0.25)
    .ATTR(ninf, Float, -INFINITY)
    .ATTR(b, Bool, true)
    .ATTR(s, String, "quote\" back\\ tab\t")
    .ATTR(as, AscendString, "asc")
    .ATTR(t, Type, DT_INT32)
    .ATTR(tensor, Tensor, Tensor())
    .ATTR(li, ListInt, {1, -2})
    .ATTR(lf, ListFloat, {0.5})
    .ATTR(lb, ListBool, {true, false})
    .ATTR(ls, ListString, {"a", "b"})
    .ATTR(las, ListAscendString, {})
    .ATTR(lt, ListType, {DT_FLOAT, DT_INT8})
    .ATTR(in, ListListInt, {{1}, {2, 3}})
    .OP_END_FACTORY_REG(AllAttrs)

        REG_OP(MakeSeed)
    .OUTPUT(y, TensorType({DT_INT64}))
    .ATTR(seed, Int, 0)
    .OP_END_FACTORY_REG(MakeSeed)

        REG_OP(PickAny)
    .OPTIONAL_INPUT(a, TensorType::ALL())
    .OPTIONAL_INPUT(b, TensorType::ALL())
    .OUTPUT(y, TensorType::ALL())
    .OP_END_FACTORY_REG(PickAny)

        REG_OP(Sink)
    .INPUT(x, TensorType::ALL())
    .OP_END_FACTORY_REG(Sink)

    // Names the generated code uses itself: builder (Python), std and ge (C++).
    REG_OP(Renamed)
    .INPUT(builder, TensorType::ALL())
    .OPTIONAL_INPUT(std, TensorType::ALL())
    .OUTPUT(groups, TensorType::ALL())
    .ATTR(ge, Int, 1)
    .OP_END_FACTORY_REG(Renamed)

        REG_OP(SplitN)
    .INPUT(x, TensorType::ALL())
    .DYNAMIC_OUTPUT(y, TensorType::ALL())
    .OP_END_FACTORY_REG(SplitN)
}  // namespace ge

#endif  // TWIN_ES_TESTS_ES_TEST_OPS_H_

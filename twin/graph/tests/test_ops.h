// Prototypes used by the graph library's own tests (built into libtest_opp.so and included by
// reg_op_test). TwinConcatTest exercises every REG_OP clause; TwinAttrEchoTest every attr type;
// TwinNoImplTest has no IMPL_OP.
#ifndef GE_TWIN_GRAPH_TESTS_TEST_OPS_H_
#define GE_TWIN_GRAPH_TESTS_TEST_OPS_H_

#include "graph/operator_reg.h"

namespace ge {
REG_OP(TwinConcatTest)
    .DYNAMIC_INPUT(x, T)
    .OPTIONAL_INPUT(bias, TensorType({DT_FLOAT, DT_INT32}))
    .OUTPUT(y, T)
    .DYNAMIC_OUTPUT(extra, TensorType::ALL())
    .REQUIRED_ATTR(axis, Int)
    .ATTR(scale, Float, 1.5)
    .ATTR(mode, String, "sum")
    .ATTR(flag, Bool, true)
    .ATTR(pads, ListInt, {1, 2, 3})
    .ATTR(dst_type, Type, DT_INT32)
    .ATTR(weights, ListFloat, {0.5, 0.25})
    .ATTR(grid, ListListInt, {{1, 2}, {3}})
    .ATTR(names, ListString, {"a", "b"})
    .ATTR(empty_list, ListInt, {})
    .DATATYPE(T, TensorType({DT_FLOAT, DT_INT32}))
    .OP_END_FACTORY_REG(TwinConcatTest)

    // One required attr of every type the C ABI carries; its InferShape echoes the values gert's
    // RuntimeAttrs holds into y's shape (test_opp.cc), so a test sees what crossed the boundary.
    REG_OP(TwinAttrEchoTest)
    .INPUT(x, T)
    .OUTPUT(y, T)
    .REQUIRED_ATTR(i, Int)
    .REQUIRED_ATTR(f, Float)
    .REQUIRED_ATTR(b, Bool)
    .REQUIRED_ATTR(s, String)
    .REQUIRED_ATTR(dt, Type)
    .REQUIRED_ATTR(li, ListInt)
    .REQUIRED_ATTR(lf, ListFloat)
    .REQUIRED_ATTR(lb, ListBool)
    .REQUIRED_ATTR(t, Tensor)
    .REQUIRED_ATTR(ls, ListString)
    .REQUIRED_ATTR(ldt, ListType)
    .REQUIRED_ATTR(lli, ListListInt)
    .DATATYPE(T, TensorType({DT_FLOAT, DT_FLOAT16}))
    .OP_END_FACTORY_REG(TwinAttrEchoTest)

        REG_OP(TwinNoImplTest)
    .INPUT(x, TensorType::ALL())
    .OUTPUT(y, TensorType::ALL())
    .OP_END_FACTORY_REG(TwinNoImplTest)
}  // namespace ge

#endif  // GE_TWIN_GRAPH_TESTS_TEST_OPS_H_

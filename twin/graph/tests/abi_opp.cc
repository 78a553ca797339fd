// A one-op proto library for the ABI guard tests, built twice: with the build's
// _GLIBCXX_USE_CXX11_ABI (libabi_same_opp.so, loads and infers) and, with
// GE_TWIN_TEST_OTHER_ABI, with the opposite value (libabi_other_opp.so, must be refused).
//   TwinAbiScaleTest: y = x's shape with every dim times attr `factor` (Int, default 2).
#ifdef GE_TWIN_TEST_OTHER_ABI
// The flip must come before any standard header; abi_config.h holds only a #define.
#include "ge_twin/abi_config.h"
#undef _GLIBCXX_USE_CXX11_ABI
#if GE_TWIN_CXX11_ABI
#define _GLIBCXX_USE_CXX11_ABI 0
#else
#define _GLIBCXX_USE_CXX11_ABI 1
#endif
#endif

#include <string>

#include "graph/operator_reg.h"
#include "op_log.h"
#include "register/op_impl_registry.h"

namespace ge {
REG_OP(TwinAbiScaleTest)
    .INPUT(x, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .ATTR(factor, Int, 2)
    .OP_END_FACTORY_REG(TwinAbiScaleTest)

        namespace {
  graphStatus InferShapeScale(gert::InferShapeContext * context) {
    const gert::Shape *x = context->GetInputShape(0);
    const int64_t *factor = context->GetAttrs()->GetInt(0);
    if (x == nullptr || factor == nullptr) return GRAPH_FAILED;
    gert::Shape *y = context->GetOutputShape(0);
    *y = *x;
    for (size_t i = 0; i < y->GetDimNum(); ++i) y->SetDim(i, x->GetDim(i) * *factor);
    return GRAPH_SUCCESS;
  }
}  // namespace

IMPL_OP(TwinAbiScaleTest).InferShape(InferShapeScale);
}  // namespace ge

/* Shape and dtype inference of AbsSubCustom, registered with IMPL_OP. */
#include "abs_sub_custom.h"

#include "op_log.h"
#include "register/op_impl_registry.h"

namespace ge {
namespace {
graphStatus InferShape(gert::InferShapeContext *context) {
  const gert::Shape *x1 = context->GetInputShape(0);
  const gert::Shape *x2 = context->GetInputShape(1);
  gert::Shape *y = context->GetOutputShape(0);
  if (x1 == nullptr || x2 == nullptr || y == nullptr) {
    OP_LOGE(context->GetNodeName(), "x1, x2 and y must all be present");
    return GRAPH_FAILED;
  }
  if (!(*x1 == *x2)) {
    OP_LOGE(context->GetNodeName(), "x1 and x2 must have the same shape");
    return GRAPH_FAILED;
  }
  *y = *x1;
  return GRAPH_SUCCESS;
}

graphStatus InferDataType(gert::InferDataTypeContext *context) {
  return context->SetOutputDataType(0, context->GetInputDataType(0));
}
}  // namespace

IMPL_OP(AbsSubCustom).InferShape(InferShape).InferDataType(InferDataType);
}  // namespace ge

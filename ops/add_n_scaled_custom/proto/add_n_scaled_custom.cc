// Shape and dtype inference (IMPL_OP v2 functions) of AddNScaledCustom — every x instance must
// have the first one's shape; y is that shape and dtype — and MulHostCustom (x1 and x2 alike, y too).
#include "add_n_scaled_custom.h"

#include <cmath>

#include "op_log.h"
#include "register/op_impl_registry.h"

namespace ge {
namespace {
graphStatus InferShapeAddNScaledCustom(gert::InferShapeContext *context) {
  const size_t count = context->GetComputeNodeInputNum();
  const gert::Shape *first = context->GetInputShape(0);
  gert::Shape *y = context->GetOutputShape(0);
  if (first == nullptr || y == nullptr) {
    OP_LOGE(context->GetNodeName(), "needs at least one input x and the output y");
    return GRAPH_FAILED;
  }
  for (size_t i = 1; i < count; ++i) {
    if (!(*context->GetInputShape(i) == *first)) {
      OP_LOGE(context->GetNodeName(), "input x%zu has another shape than x0", i);
      return GRAPH_FAILED;
    }
  }
  const float *scale = context->GetAttrs() != nullptr ? context->GetAttrs()->GetFloat(0) : nullptr;
  if (scale == nullptr || !std::isfinite(*scale)) {
    OP_LOGE(context->GetNodeName(), "scale must be set and finite");
    return GRAPH_FAILED;
  }
  *y = *first;
  return GRAPH_SUCCESS;
}

graphStatus InferShapeMulHostCustom(gert::InferShapeContext *context) {
  const gert::Shape *x1 = context->GetInputShape(0);
  const gert::Shape *x2 = context->GetInputShape(1);
  gert::Shape *y = context->GetOutputShape(0);
  if (x1 == nullptr || x2 == nullptr || y == nullptr) {
    OP_LOGE(context->GetNodeName(), "inputs x1, x2 and output y are required");
    return GRAPH_FAILED;
  }
  if (!(*x1 == *x2)) {
    OP_LOGE(context->GetNodeName(), "x1 and x2 must have one shape");
    return GRAPH_FAILED;
  }
  *y = *x1;
  return GRAPH_SUCCESS;
}

graphStatus InferDataTypeSameAsFirst(gert::InferDataTypeContext *context) {
  return context->SetOutputDataType(0, context->GetInputDataType(0));
}
}  // namespace

IMPL_OP(AddNScaledCustom).InferShape(InferShapeAddNScaledCustom).InferDataType(InferDataTypeSameAsFirst);
IMPL_OP(MulHostCustom).InferShape(InferShapeMulHostCustom).InferDataType(InferDataTypeSameAsFirst);
}  // namespace ge

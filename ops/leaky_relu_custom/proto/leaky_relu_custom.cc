// Shape and dtype inference of LeakyReluCustom (IMPL_OP v2 functions): y is x.
#include "leaky_relu_custom.h"

#include <cmath>

#include "op_log.h"
#include "register/op_impl_registry.h"

namespace ge {
namespace {
graphStatus InferShapeLeakyReluCustom(gert::InferShapeContext *context) {
  const gert::Shape *x = context->GetInputShape(0);
  gert::Shape *y = context->GetOutputShape(0);
  if (x == nullptr || y == nullptr) {
    OP_LOGE(context->GetNodeName(), "input x and output y are required");
    return GRAPH_FAILED;
  }
  // A non-finite slope would turn every negative input into inf/nan: refuse it at graph build.
  const float *slope = context->GetAttrs() != nullptr ? context->GetAttrs()->GetFloat(0) : nullptr;
  if (slope != nullptr && !std::isfinite(*slope)) {
    OP_LOGE(context->GetNodeName(), "negative_slope must be finite, got %f", static_cast<double>(*slope));
    return GRAPH_FAILED;
  }
  *y = *x;
  return GRAPH_SUCCESS;
}

graphStatus InferDataTypeLeakyReluCustom(gert::InferDataTypeContext *context) {
  return context->SetOutputDataType(0, context->GetInputDataType(0));
}
}  // namespace

IMPL_OP(LeakyReluCustom).InferShape(InferShapeLeakyReluCustom).InferDataType(InferDataTypeLeakyReluCustom);
}  // namespace ge

// Shape and dtype inference of PythonCompilableAddCustom (IMPL_OP v2 functions).
#include "add_custom.h"

#include <string>

#include "op_log.h"
#include "register/op_impl_registry.h"

namespace ge {
namespace {
std::string ShapeText(const gert::Shape &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.GetDimNum(); ++i) text += (i == 0 ? "" : ",") + std::to_string(shape.GetDim(i));
  return text + "]";
}

graphStatus InferShapeAddCustom(gert::InferShapeContext *context) {
  const gert::Shape *x1 = context->GetInputShape(0);
  const gert::Shape *x2 = context->GetInputShape(1);
  gert::Shape *y = context->GetOutputShape(0);
  if (x1 == nullptr || x2 == nullptr || y == nullptr) {
    OP_LOGE(context->GetNodeName(), "inputs x1, x2 and output y are required");
    return GRAPH_FAILED;
  }
  if (*x1 != *x2) {
    OP_LOGE(context->GetNodeName(), "x1 shape %s and x2 shape %s differ", ShapeText(*x1).c_str(),
            ShapeText(*x2).c_str());
    return GRAPH_FAILED;
  }
  *y = *x1;
  return GRAPH_SUCCESS;
}

graphStatus InferDataTypeAddCustom(gert::InferDataTypeContext *context) {
  return context->SetOutputDataType(0, context->GetInputDataType(0));
}
}  // namespace

IMPL_OP(PythonCompilableAddCustom).InferShape(InferShapeAddCustom).InferDataType(InferDataTypeAddCustom);
}  // namespace ge

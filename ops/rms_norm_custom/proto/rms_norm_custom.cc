// Shape and dtype inference of RmsNormCustom (IMPL_OP v2 functions): y is x; gamma is [H].
#include "rms_norm_custom.h"

#include <cmath>
#include <string>

#include "op_log.h"
#include "register/op_impl_registry.h"

namespace ge {
namespace {
std::string DimsText(const gert::Shape &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.GetDimNum(); ++i) {
    if (i != 0) text += ", ";
    text += std::to_string(shape.GetDim(i));
  }
  return text + "]";
}

graphStatus InferShapeRmsNormCustom(gert::InferShapeContext *context) {
  const gert::Shape *x = context->GetInputShape(0);
  const gert::Shape *gamma = context->GetInputShape(1);
  gert::Shape *y = context->GetOutputShape(0);
  if (x == nullptr || gamma == nullptr || y == nullptr) {
    OP_LOGE(context->GetNodeName(), "inputs x, gamma and output y are required");
    return GRAPH_FAILED;
  }
  if (x->GetDimNum() != 3) {
    OP_LOGE(context->GetNodeName(), "x must be 3-D [B, S, H], got %s", DimsText(*x).c_str());
    return GRAPH_FAILED;
  }
  const int64_t h = x->GetDim(2);
  if (gamma->GetDimNum() != 1 || gamma->GetDim(0) != h) {
    OP_LOGE(context->GetNodeName(), "gamma must be [H] = [%lld] for x %s, got %s", static_cast<long long>(h),
            DimsText(*x).c_str(), DimsText(*gamma).c_str());
    return GRAPH_FAILED;
  }
  // A non-finite or negative epsilon makes every row nan (or divides by zero): refuse it at graph build.
  const float *epsilon = context->GetAttrs() != nullptr ? context->GetAttrs()->GetFloat(0) : nullptr;
  if (epsilon != nullptr && !(std::isfinite(*epsilon) && *epsilon >= 0.0f)) {
    OP_LOGE(context->GetNodeName(), "epsilon must be finite and >= 0, got %f", static_cast<double>(*epsilon));
    return GRAPH_FAILED;
  }
  *y = *x;
  return GRAPH_SUCCESS;
}

graphStatus InferDataTypeRmsNormCustom(gert::InferDataTypeContext *context) {
  return context->SetOutputDataType(0, context->GetInputDataType(0));
}
}  // namespace

IMPL_OP(RmsNormCustom).InferShape(InferShapeRmsNormCustom).InferDataType(InferDataTypeRmsNormCustom);
}  // namespace ge

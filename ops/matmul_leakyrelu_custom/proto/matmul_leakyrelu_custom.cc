// Shape and dtype inference of MatmulLeakyReluCustom (IMPL_OP v2 functions): c is [M, N] float.
#include "matmul_leakyrelu_custom.h"

#include <cmath>

#include "op_log.h"
#include "register/op_impl_registry.h"

namespace ge {
namespace {
graphStatus InferShapeMatmulLeakyReluCustom(gert::InferShapeContext *context) {
  const gert::Shape *a = context->GetInputShape(0);
  const gert::Shape *b = context->GetInputShape(1);
  const gert::Shape *bias = context->GetInputShape(2);
  gert::Shape *c = context->GetOutputShape(0);
  if (a == nullptr || b == nullptr || bias == nullptr || c == nullptr) {
    OP_LOGE(context->GetNodeName(), "inputs a, b, bias and output c are required");
    return GRAPH_FAILED;
  }
  if (a->GetDimNum() != 2 || b->GetDimNum() != 2 || bias->GetDimNum() != 1) {
    OP_LOGE(context->GetNodeName(), "a and b must be 2-D and bias 1-D, got %zu-D, %zu-D and %zu-D", a->GetDimNum(),
            b->GetDimNum(), bias->GetDimNum());
    return GRAPH_FAILED;
  }
  if (a->GetDim(1) != b->GetDim(0) || bias->GetDim(0) != b->GetDim(1)) {
    OP_LOGE(context->GetNodeName(), "a [%lld, %lld], b [%lld, %lld] and bias [%lld] do not fit a @ b + bias",
            static_cast<long long>(a->GetDim(0)), static_cast<long long>(a->GetDim(1)),
            static_cast<long long>(b->GetDim(0)), static_cast<long long>(b->GetDim(1)),
            static_cast<long long>(bias->GetDim(0)));
    return GRAPH_FAILED;
  }
  const float *slope = context->GetAttrs() != nullptr ? context->GetAttrs()->GetFloat(0) : nullptr;
  if (slope != nullptr && !std::isfinite(*slope)) {
    OP_LOGE(context->GetNodeName(), "negative_slope must be finite, got %f", static_cast<double>(*slope));
    return GRAPH_FAILED;
  }
  c->SetDimNum(0);
  c->AppendDim(a->GetDim(0));
  c->AppendDim(b->GetDim(1));
  return GRAPH_SUCCESS;
}

graphStatus InferDataTypeMatmulLeakyReluCustom(gert::InferDataTypeContext *context) {
  return context->SetOutputDataType(0, DT_FLOAT);
}
}  // namespace

IMPL_OP(MatmulLeakyReluCustom)
    .InferShape(InferShapeMatmulLeakyReluCustom)
    .InferDataType(InferDataTypeMatmulLeakyReluCustom);
}  // namespace ge

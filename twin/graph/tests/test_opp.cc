// A test OPP proto library: the prototypes of test_ops.h plus IMPL_OP for TwinConcatTest.
//   y      = concat of the dynamic inputs x* along attr axis (negative axis counts from the end)
//   extra_i = [len(pads), round(scale * 10), i]; dtype = attr dst_type
//   TwinAttrEchoTest: y's shape = [i, bits(f), b, len(s), s[0..2], dt, len(li), li[0..2], len(lf),
//   bits(lf[0..2]), len(lb), lb[0..2]] (absent elements: -7), dtype of x. Strings and lists have
//   at most 3 elements, so the echo stays within gert::Shape's 25 dims.
//   failures: an axis out of range is explained with OP_LOGE (the C ABI must report it); a rank
//   mismatch between inputs fails without a message.
#include <cmath>
#include <cstring>

#include "op_log.h"
#include "register/op_impl_registry.h"
#include "test_ops.h"

namespace ge {
namespace {
graphStatus InferShapeConcat(gert::InferShapeContext *context) {
  const gert::RuntimeAttrs *attrs = context->GetAttrs();
  const int64_t *axis_attr = attrs->GetInt(0);
  const float *scale = attrs->GetFloat(1);
  const gert::TypedContinuousVector<int64_t> *pads = attrs->GetListInt(4);
  const gert::Shape *first = context->GetDynamicInputShape(0, 0);
  if (axis_attr == nullptr || scale == nullptr || pads == nullptr || first == nullptr) return GRAPH_FAILED;
  int64_t rank = static_cast<int64_t>(first->GetDimNum());
  int64_t axis = *axis_attr < 0 ? *axis_attr + rank : *axis_attr;
  if (axis < 0 || axis >= rank) {
    OP_LOGE(context->GetNodeName(), "axis %lld is out of range for inputs of rank %lld",
            static_cast<long long>(*axis_attr), static_cast<long long>(rank));
    return GRAPH_FAILED;
  }
  gert::Shape *y = context->GetOutputShape(0);
  *y = *first;
  int64_t total = 0;
  size_t n = 0;
  for (const gert::Shape *x = first; x != nullptr; x = context->GetDynamicInputShape(0, ++n)) {
    if (x->GetDimNum() != first->GetDimNum()) return GRAPH_FAILED;
    total += x->GetDim(static_cast<size_t>(axis));
  }
  y->SetDim(static_cast<size_t>(axis), total);
  for (size_t i = 0;; ++i) {
    gert::Shape *extra = context->GetDynamicOutputShape(1, i);
    if (extra == nullptr) break;
    *extra = gert::Shape{static_cast<int64_t>(pads->GetSize()), static_cast<int64_t>(std::lround(*scale * 10)),
                         static_cast<int64_t>(i)};
  }
  return GRAPH_SUCCESS;
}

graphStatus InferDataTypeConcat(gert::InferDataTypeContext *context) {
  const ge::DataType *dst = context->GetAttrs()->GetAttrPointer<ge::DataType>(5);
  if (dst == nullptr) return GRAPH_FAILED;
  if (context->SetOutputDataType(0, context->GetDynamicInputDataType(0, 0)) != GRAPH_SUCCESS) return GRAPH_FAILED;
  for (size_t i = 1; context->SetOutputDataType(i, *dst) == GRAPH_SUCCESS; ++i) {
  }
  return GRAPH_SUCCESS;
}
int64_t FloatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return static_cast<int64_t>(bits);
}

constexpr int64_t kAbsent = -7;

template <typename T, typename ToDim>
bool EchoList(const gert::TypedContinuousVector<T> *list, ToDim to_dim, gert::Shape *y) {
  if (list == nullptr || list->GetSize() > 3) return false;
  y->AppendDim(static_cast<int64_t>(list->GetSize()));
  for (size_t k = 0; k < 3; ++k) y->AppendDim(k < list->GetSize() ? to_dim(list->GetData()[k]) : kAbsent);
  return true;
}

graphStatus InferShapeEcho(gert::InferShapeContext *context) {
  const gert::RuntimeAttrs *attrs = context->GetAttrs();
  const int64_t *i = attrs->GetInt(0);
  const float *f = attrs->GetFloat(1);
  const bool *b = attrs->GetBool(2);
  const char *s = attrs->GetStr(3);
  const ge::DataType *dt = attrs->GetAttrPointer<ge::DataType>(4);
  if (i == nullptr || f == nullptr || b == nullptr || s == nullptr || dt == nullptr || std::strlen(s) > 3) {
    return GRAPH_FAILED;
  }
  gert::Shape *y = context->GetOutputShape(0);
  *y = gert::Shape{*i, FloatBits(*f), *b ? 1 : 0, static_cast<int64_t>(std::strlen(s))};
  for (size_t k = 0; k < 3; ++k) y->AppendDim(k < std::strlen(s) ? static_cast<unsigned char>(s[k]) : kAbsent);
  y->AppendDim(static_cast<int64_t>(*dt));
  const bool ok = EchoList(
                      attrs->GetListInt(5), [](int64_t v) { return v; }, y) &&
                  EchoList(attrs->GetListFloat(6), FloatBits, y) &&
                  EchoList(
                      attrs->GetListBool(7), [](bool v) { return static_cast<int64_t>(v); }, y);
  return ok ? GRAPH_SUCCESS : GRAPH_FAILED;
}
}  // namespace

IMPL_OP(TwinAttrEchoTest).InferShape(InferShapeEcho);
IMPL_OP(TwinConcatTest).InferShape(InferShapeConcat).InferDataType(InferDataTypeConcat);
}  // namespace ge

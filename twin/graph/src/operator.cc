// ge::Operator: handle methods, edge wiring, descs, attrs and REG_OP registration hooks.
#include "graph/operator.h"

#include <limits>

#include "log.h"
#include "operator_impl.h"

namespace ge {
namespace {
std::shared_ptr<OperatorImpl> MakeImpl(const std::string &name, const std::string &type) {
  auto impl = std::make_shared<OperatorImpl>();
  impl->name = name;
  impl->type = type;
  return impl;
}

const char *SafeName(const char *s) { return s == nullptr ? "" : s; }

// Inserts `num` instances into `slots` (at the end or the front).
template <typename T>
void InsertInstances(std::vector<T> &slots, uint32_t num, bool is_push_back) {
  slots.insert(is_push_back ? slots.end() : slots.begin(), num, T());
}

template <typename T>
bool ReadAttr(const std::shared_ptr<OperatorImpl> &impl, const char *name, T &out) {
  if (impl == nullptr || name == nullptr) return false;
  auto it = impl->attrs.find(name);
  if (it == impl->attrs.end()) return false;
  const T *value = std::get_if<T>(&it->second);
  if (value == nullptr) return false;
  out = *value;
  return true;
}

template <typename Narrow>
bool NarrowInt(int64_t v, Narrow &out) {
  if (v < static_cast<int64_t>(std::numeric_limits<Narrow>::min()) ||
      v > static_cast<int64_t>(std::numeric_limits<Narrow>::max())) {
    return false;
  }
  out = static_cast<Narrow>(v);
  return true;
}
}  // namespace

Operator::Operator() = default;
Operator::Operator(const char *type) : impl_(MakeImpl(SafeName(type), SafeName(type))) {}
Operator::Operator(const char *name, const char *type) : impl_(MakeImpl(SafeName(name), SafeName(type))) {}
Operator::Operator(const AscendString &name, const AscendString &type)
    : impl_(MakeImpl(name.GetString(), type.GetString())) {}
Operator::Operator(const std::string &type) : impl_(MakeImpl(type, type)) {}
Operator::Operator(const std::string &name, const std::string &type) : impl_(MakeImpl(name, type)) {}

bool Operator::IsEmpty() const { return impl_ == nullptr; }

std::string Operator::GetName() const { return impl_ == nullptr ? "" : impl_->name; }

graphStatus Operator::GetName(AscendString &name) const {
  if (impl_ == nullptr) return GRAPH_FAILED;
  name = AscendString(impl_->name.c_str());
  return GRAPH_SUCCESS;
}

std::string Operator::GetOpType() const { return impl_ == nullptr ? "" : impl_->type; }

graphStatus Operator::GetOpType(AscendString &type) const {
  if (impl_ == nullptr) return GRAPH_FAILED;
  type = AscendString(impl_->type.c_str());
  return GRAPH_SUCCESS;
}

// ---- edges ----

namespace {
// Connects instance (ir, rel) of dst to output src_index of src; logs and returns false on error.
bool Connect(const std::shared_ptr<OperatorImpl> &dst, size_t ir, size_t rel, const Operator &src_op,
             uint32_t src_index) {
  const auto &src = OperatorInternal::Impl(src_op);
  if (src == nullptr) {
    GE_TWIN_LOGE("SetInput on op '%s': the source operator is empty", dst->name.c_str());
    return false;
  }
  if (src_index >= src->OutputCount()) {
    GE_TWIN_LOGE("SetInput on op '%s' input '%s': source op '%s' (type %s) has %zu outputs, index %u is out of range",
                 dst->name.c_str(), dst->InputInstanceName(ir, rel).c_str(), src->name.c_str(), src->type.c_str(),
                 src->OutputCount(), src_index);
    return false;
  }
  if (src == dst) {
    GE_TWIN_LOGE("SetInput on op '%s': an op cannot feed itself", dst->name.c_str());
    return false;
  }
  InputSlot &slot = dst->inputs[ir][rel];
  slot.src = src;
  slot.src_index = src_index;
  return true;
}

bool ResolveDstInput(const std::shared_ptr<OperatorImpl> &dst, const char *dst_name, size_t *ir, size_t *rel) {
  if (dst == nullptr) {
    GE_TWIN_LOGE("SetInput('%s') on an empty Operator", SafeName(dst_name));
    return false;
  }
  if (!dst->FindInput(SafeName(dst_name), ir, rel)) {
    GE_TWIN_LOGE("SetInput: op '%s' (type %s) has no input named '%s'", dst->name.c_str(), dst->type.c_str(),
                 SafeName(dst_name));
    return false;
  }
  return true;
}
}  // namespace

Operator &Operator::SetInput(const char *dst_name, const Operator &src_oprt) {
  return SetInput(dst_name, src_oprt, 0u);
}

Operator &Operator::SetInput(const char *dst_name, const Operator &src_oprt, const char *name) {
  size_t ir = 0, rel = 0;
  if (!ResolveDstInput(impl_, dst_name, &ir, &rel)) return *this;
  const auto &src = OperatorInternal::Impl(src_oprt);
  size_t out_ir = 0, out_rel = 0;
  if (src == nullptr || !src->FindOutput(SafeName(name), &out_ir, &out_rel)) {
    GE_TWIN_LOGE("SetInput on op '%s': source op '%s' has no output named '%s'", impl_->name.c_str(),
                 src == nullptr ? "" : src->name.c_str(), SafeName(name));
    return *this;
  }
  size_t flat = out_rel;
  for (size_t i = 0; i < out_ir; ++i) flat += src->outputs[i].size();
  Connect(impl_, ir, rel, src_oprt, static_cast<uint32_t>(flat));
  return *this;
}

Operator &Operator::SetInput(const char *dst_name, const Operator &src_oprt, uint32_t index) {
  size_t ir = 0, rel = 0;
  if (ResolveDstInput(impl_, dst_name, &ir, &rel)) Connect(impl_, ir, rel, src_oprt, index);
  return *this;
}

Operator &Operator::SetInput(uint32_t dst_index, const Operator &src_oprt, uint32_t src_index) {
  size_t ir = 0, rel = 0;
  if (impl_ == nullptr || !impl_->FlatInput(dst_index, &ir, &rel)) {
    GE_TWIN_LOGE("SetInput: op '%s' has no input index %u", impl_ == nullptr ? "" : impl_->name.c_str(), dst_index);
    return *this;
  }
  Connect(impl_, ir, rel, src_oprt, src_index);
  return *this;
}

Operator &Operator::SetInput(const std::string &dst_name, const Operator &src_oprt) {
  return SetInput(dst_name.c_str(), src_oprt);
}
Operator &Operator::SetInput(const std::string &dst_name, const Operator &src_oprt, const std::string &name) {
  return SetInput(dst_name.c_str(), src_oprt, name.c_str());
}
Operator &Operator::SetInput(const std::string &dst_name, const Operator &src_oprt, uint32_t index) {
  return SetInput(dst_name.c_str(), src_oprt, index);
}

Operator &Operator::SetInput(const char *dst_name, uint32_t dst_index, const Operator &src_oprt) {
  std::string instance = std::string(SafeName(dst_name)) + std::to_string(dst_index);
  return SetInput(instance.c_str(), src_oprt, 0u);
}

Operator &Operator::SetInput(const char *dst_name, uint32_t dst_index, const Operator &src_oprt, const char *name) {
  std::string instance = std::string(SafeName(dst_name)) + std::to_string(dst_index);
  return SetInput(instance.c_str(), src_oprt, name);
}

// ---- descs ----

size_t Operator::GetInputsSize() const { return impl_ == nullptr ? 0 : impl_->InputCount(); }
size_t Operator::GetOutputsSize() const { return impl_ == nullptr ? 0 : impl_->OutputCount(); }

TensorDesc Operator::GetInputDesc(uint32_t index) const {
  size_t ir = 0, rel = 0;
  if (impl_ == nullptr || !impl_->FlatInput(index, &ir, &rel)) return TensorDesc();
  return impl_->inputs[ir][rel].desc;
}

TensorDesc Operator::GetInputDescByName(const char *name) const {
  size_t ir = 0, rel = 0;
  if (impl_ == nullptr || !impl_->FindInput(SafeName(name), &ir, &rel)) return TensorDesc();
  return impl_->inputs[ir][rel].desc;
}

TensorDesc Operator::GetInputDesc(const std::string &name) const { return GetInputDescByName(name.c_str()); }

graphStatus Operator::UpdateInputDesc(const char *name, const TensorDesc &tensor_desc) {
  size_t ir = 0, rel = 0;
  if (impl_ == nullptr || !impl_->FindInput(SafeName(name), &ir, &rel)) {
    GE_TWIN_LOGE("UpdateInputDesc: op '%s' has no input named '%s'", impl_ == nullptr ? "" : impl_->name.c_str(),
                 SafeName(name));
    return GRAPH_FAILED;
  }
  impl_->inputs[ir][rel].desc = tensor_desc;
  return GRAPH_SUCCESS;
}

graphStatus Operator::UpdateInputDesc(const std::string &name, const TensorDesc &tensor_desc) {
  return UpdateInputDesc(name.c_str(), tensor_desc);
}

TensorDesc Operator::GetOutputDesc(uint32_t index) const {
  size_t ir = 0, rel = 0;
  if (impl_ == nullptr || !impl_->FlatOutput(index, &ir, &rel)) return TensorDesc();
  return impl_->outputs[ir][rel];
}

TensorDesc Operator::GetOutputDescByName(const char *name) const {
  size_t ir = 0, rel = 0;
  if (impl_ == nullptr || !impl_->FindOutput(SafeName(name), &ir, &rel)) return TensorDesc();
  return impl_->outputs[ir][rel];
}

TensorDesc Operator::GetOutputDesc(const std::string &name) const { return GetOutputDescByName(name.c_str()); }

graphStatus Operator::UpdateOutputDesc(const char *name, const TensorDesc &tensor_desc) {
  size_t ir = 0, rel = 0;
  if (impl_ == nullptr || !impl_->FindOutput(SafeName(name), &ir, &rel)) {
    GE_TWIN_LOGE("UpdateOutputDesc: op '%s' has no output named '%s'", impl_ == nullptr ? "" : impl_->name.c_str(),
                 SafeName(name));
    return GRAPH_FAILED;
  }
  impl_->outputs[ir][rel] = tensor_desc;
  return GRAPH_SUCCESS;
}

graphStatus Operator::UpdateOutputDesc(const std::string &name, const TensorDesc &tensor_desc) {
  return UpdateOutputDesc(name.c_str(), tensor_desc);
}

TensorDesc Operator::GetDynamicInputDesc(const char *name, uint32_t index) const {
  return GetInputDescByName((std::string(SafeName(name)) + std::to_string(index)).c_str());
}

graphStatus Operator::UpdateDynamicInputDesc(const char *name, uint32_t index, const TensorDesc &tensor_desc) {
  return UpdateInputDesc((std::string(SafeName(name)) + std::to_string(index)).c_str(), tensor_desc);
}

TensorDesc Operator::GetDynamicOutputDesc(const char *name, uint32_t index) const {
  return GetOutputDescByName((std::string(SafeName(name)) + std::to_string(index)).c_str());
}

graphStatus Operator::UpdateDynamicOutputDesc(const char *name, uint32_t index, const TensorDesc &tensor_desc) {
  return UpdateOutputDesc((std::string(SafeName(name)) + std::to_string(index)).c_str(), tensor_desc);
}

// ---- attrs ----

#define GE_TWIN_SET_ATTR(ValueType, expr)                                 \
  Operator &Operator::SetAttr(const char *name, ValueType attr_value) {   \
    if (impl_ == nullptr || name == nullptr) {                            \
      GE_TWIN_LOGE("SetAttr('%s') on an empty Operator", SafeName(name)); \
      return *this;                                                       \
    }                                                                     \
    impl_->attrs[name] = AttrValue(expr);                                 \
    return *this;                                                         \
  }

GE_TWIN_SET_ATTR(int64_t, attr_value)
GE_TWIN_SET_ATTR(int32_t, static_cast<int64_t>(attr_value))
GE_TWIN_SET_ATTR(uint32_t, static_cast<int64_t>(attr_value))
GE_TWIN_SET_ATTR(const std::vector<int64_t> &, attr_value)
GE_TWIN_SET_ATTR(const std::vector<int32_t> &, std::vector<int64_t>(attr_value.begin(), attr_value.end()))
GE_TWIN_SET_ATTR(const std::vector<uint32_t> &, std::vector<int64_t>(attr_value.begin(), attr_value.end()))
GE_TWIN_SET_ATTR(std::initializer_list<int64_t> &&, std::vector<int64_t>(attr_value))
GE_TWIN_SET_ATTR(float, attr_value)
GE_TWIN_SET_ATTR(const std::vector<float> &, attr_value)
GE_TWIN_SET_ATTR(bool, attr_value)
GE_TWIN_SET_ATTR(const std::vector<bool> &, attr_value)
GE_TWIN_SET_ATTR(const char *, std::string(SafeName(attr_value)))
GE_TWIN_SET_ATTR(const std::string &, attr_value)
GE_TWIN_SET_ATTR(const AscendString &, std::string(attr_value.GetString()))
GE_TWIN_SET_ATTR(const std::vector<std::string> &, attr_value)
GE_TWIN_SET_ATTR(const Tensor &, attr_value)
GE_TWIN_SET_ATTR(const ge::DataType &, attr_value)
GE_TWIN_SET_ATTR(const std::vector<ge::DataType> &, attr_value)
GE_TWIN_SET_ATTR(const std::vector<std::vector<int64_t>> &, attr_value)
#undef GE_TWIN_SET_ATTR

Operator &Operator::SetAttr(const char *name, const std::vector<AscendString> &attr_value) {
  std::vector<std::string> values;
  values.reserve(attr_value.size());
  for (const auto &v : attr_value) values.emplace_back(v.GetString());
  return SetAttr(name, values);
}

graphStatus Operator::GetAttr(const char *name, int64_t &attr_value) const {
  return ReadAttr(impl_, name, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
graphStatus Operator::GetAttr(const char *name, int32_t &attr_value) const {
  int64_t v = 0;
  return ReadAttr(impl_, name, v) && NarrowInt(v, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
graphStatus Operator::GetAttr(const char *name, uint32_t &attr_value) const {
  int64_t v = 0;
  return ReadAttr(impl_, name, v) && NarrowInt(v, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
graphStatus Operator::GetAttr(const char *name, std::vector<int64_t> &attr_value) const {
  return ReadAttr(impl_, name, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
graphStatus Operator::GetAttr(const char *name, std::vector<int32_t> &attr_value) const {
  std::vector<int64_t> v;
  if (!ReadAttr(impl_, name, v)) return GRAPH_FAILED;
  std::vector<int32_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (!NarrowInt(v[i], out[i])) return GRAPH_FAILED;
  }
  attr_value = out;
  return GRAPH_SUCCESS;
}
graphStatus Operator::GetAttr(const char *name, std::vector<uint32_t> &attr_value) const {
  std::vector<int64_t> v;
  if (!ReadAttr(impl_, name, v)) return GRAPH_FAILED;
  std::vector<uint32_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (!NarrowInt(v[i], out[i])) return GRAPH_FAILED;
  }
  attr_value = out;
  return GRAPH_SUCCESS;
}
graphStatus Operator::GetAttr(const char *name, float &attr_value) const {
  return ReadAttr(impl_, name, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
graphStatus Operator::GetAttr(const char *name, std::vector<float> &attr_value) const {
  return ReadAttr(impl_, name, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
graphStatus Operator::GetAttr(const char *name, bool &attr_value) const {
  return ReadAttr(impl_, name, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
graphStatus Operator::GetAttr(const char *name, std::vector<bool> &attr_value) const {
  return ReadAttr(impl_, name, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
graphStatus Operator::GetAttr(const char *name, std::string &attr_value) const {
  return ReadAttr(impl_, name, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
graphStatus Operator::GetAttr(const char *name, AscendString &attr_value) const {
  std::string v;
  if (!ReadAttr(impl_, name, v)) return GRAPH_FAILED;
  attr_value = AscendString(v.c_str(), v.size());
  return GRAPH_SUCCESS;
}
graphStatus Operator::GetAttr(const char *name, std::vector<std::string> &attr_value) const {
  return ReadAttr(impl_, name, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
graphStatus Operator::GetAttr(const char *name, std::vector<AscendString> &attr_value) const {
  std::vector<std::string> v;
  if (!ReadAttr(impl_, name, v)) return GRAPH_FAILED;
  attr_value.clear();
  for (const auto &s : v) attr_value.emplace_back(s.c_str(), s.size());
  return GRAPH_SUCCESS;
}
graphStatus Operator::GetAttr(const char *name, Tensor &attr_value) const {
  return ReadAttr(impl_, name, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
graphStatus Operator::GetAttr(const char *name, ge::DataType &attr_value) const {
  return ReadAttr(impl_, name, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
graphStatus Operator::GetAttr(const char *name, std::vector<ge::DataType> &attr_value) const {
  return ReadAttr(impl_, name, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
graphStatus Operator::GetAttr(const char *name, std::vector<std::vector<int64_t>> &attr_value) const {
  return ReadAttr(impl_, name, attr_value) ? GRAPH_SUCCESS : GRAPH_FAILED;
}

graphStatus Operator::GetAllAttrNamesAndTypes(std::map<AscendString, AscendString> &attr_name_types) const {
  if (impl_ == nullptr) return GRAPH_FAILED;
  attr_name_types.clear();
  for (const auto &entry : impl_->attrs) {
    attr_name_types[AscendString(entry.first.c_str())] = AscendString(AttrValueTypeName(entry.second));
  }
  return GRAPH_SUCCESS;
}

// ---- REG_OP registration hooks ----

namespace {
void RegisterAttr(const std::shared_ptr<OperatorImpl> &impl, const char *name, const char *type, AttrValue value) {
  if (impl == nullptr || name == nullptr) return;
  impl->ir_attrs.push_back(IrAttr{name, type, false, value});
  impl->attrs[name] = std::move(value);
}
}  // namespace

void Operator::AttrRegister(const char *name, int64_t v) { RegisterAttr(impl_, name, "Int", v); }
void Operator::AttrRegister(const char *name, float v) { RegisterAttr(impl_, name, "Float", v); }
void Operator::AttrRegister(const char *name, bool v) { RegisterAttr(impl_, name, "Bool", v); }
void Operator::AttrRegister(const char *name, const std::string &v) { RegisterAttr(impl_, name, "String", v); }
void Operator::AttrRegister(const char *name, const AscendString &v) {
  RegisterAttr(impl_, name, "AscendString", std::string(v.GetString()));
}
void Operator::AttrRegister(const char *name, const Tensor &v) { RegisterAttr(impl_, name, "Tensor", v); }
void Operator::AttrRegister(const char *name, const ge::DataType &v) { RegisterAttr(impl_, name, "Type", v); }
void Operator::AttrRegister(const char *name, const std::vector<int64_t> &v) {
  RegisterAttr(impl_, name, "ListInt", v);
}
void Operator::AttrRegister(const char *name, const std::vector<float> &v) {
  RegisterAttr(impl_, name, "ListFloat", v);
}
void Operator::AttrRegister(const char *name, const std::vector<bool> &v) { RegisterAttr(impl_, name, "ListBool", v); }
void Operator::AttrRegister(const char *name, const std::vector<std::string> &v) {
  RegisterAttr(impl_, name, "ListString", v);
}
void Operator::AttrRegister(const char *name, const std::vector<AscendString> &v) {
  std::vector<std::string> values;
  values.reserve(v.size());
  for (const auto &s : v) values.emplace_back(s.GetString());
  RegisterAttr(impl_, name, "ListAscendString", values);
}
void Operator::AttrRegister(const char *name, const std::vector<ge::DataType> &v) {
  RegisterAttr(impl_, name, "ListType", v);
}
void Operator::AttrRegister(const char *name, const std::vector<std::vector<int64_t>> &v) {
  RegisterAttr(impl_, name, "ListListInt", v);
}

void Operator::RequiredAttrWithTypeRegister(const char *name, const char *type) {
  if (impl_ == nullptr || name == nullptr) return;
  impl_->ir_attrs.push_back(IrAttr{name, SafeName(type), true, AttrValue()});
}

void Operator::InputRegister(const char *name, const char *datatype_symbol) {
  if (impl_ == nullptr || name == nullptr) return;
  impl_->ir_inputs.push_back(IrInput{name, IrInputKind::kRequired, SafeName(datatype_symbol)});
  impl_->inputs.emplace_back(1);
}

void Operator::OptionalInputRegister(const char *name, const char *datatype_symbol) {
  if (impl_ == nullptr || name == nullptr) return;
  impl_->ir_inputs.push_back(IrInput{name, IrInputKind::kOptional, SafeName(datatype_symbol)});
  impl_->inputs.emplace_back(1);
}

void Operator::DynamicInputRegister(const char *name, uint32_t num, const char *datatype_symbol, bool is_push_back) {
  if (impl_ == nullptr || name == nullptr) return;
  impl_->ir_inputs.push_back(IrInput{name, IrInputKind::kDynamic, SafeName(datatype_symbol)});
  impl_->inputs.emplace_back();
  InsertInstances(impl_->inputs.back(), num, is_push_back);
}

void Operator::DynamicInputRegister(const char *name, uint32_t num, bool is_push_back) {
  int ir = impl_ == nullptr ? -1 : impl_->FindIrInput(SafeName(name));
  if (ir < 0 || impl_->ir_inputs[ir].kind != IrInputKind::kDynamic) {
    GE_TWIN_LOGE("create_dynamic_input: op '%s' has no dynamic input '%s'", impl_ == nullptr ? "" : impl_->name.c_str(),
                 SafeName(name));
    return;
  }
  InsertInstances(impl_->inputs[ir], num, is_push_back);
}

void Operator::DynamicInputRegisterByIndex(const char *name, uint32_t num, size_t index) {
  int ir = impl_ == nullptr ? -1 : impl_->FindIrInput(SafeName(name));
  if (ir < 0 || impl_->ir_inputs[ir].kind != IrInputKind::kDynamic || index > impl_->inputs[ir].size()) {
    GE_TWIN_LOGE("create_dynamic_input_byindex: op '%s' has no dynamic input '%s' with position %zu",
                 impl_ == nullptr ? "" : impl_->name.c_str(), SafeName(name), index);
    return;
  }
  auto &slots = impl_->inputs[ir];
  slots.insert(slots.begin() + static_cast<std::ptrdiff_t>(index), num, InputSlot());
}

void Operator::OutputRegister(const char *name, const char *datatype_symbol) {
  if (impl_ == nullptr || name == nullptr) return;
  impl_->ir_outputs.push_back(IrOutput{name, IrOutputKind::kRequired, SafeName(datatype_symbol)});
  impl_->outputs.emplace_back(1);
}

void Operator::DynamicOutputRegister(const char *name, uint32_t num, const char *datatype_symbol, bool is_push_back) {
  if (impl_ == nullptr || name == nullptr) return;
  impl_->ir_outputs.push_back(IrOutput{name, IrOutputKind::kDynamic, SafeName(datatype_symbol)});
  impl_->outputs.emplace_back();
  InsertInstances(impl_->outputs.back(), num, is_push_back);
}

void Operator::DynamicOutputRegister(const char *name, uint32_t num, bool is_push_back) {
  int ir = impl_ == nullptr ? -1 : impl_->FindIrOutput(SafeName(name));
  if (ir < 0 || impl_->ir_outputs[ir].kind != IrOutputKind::kDynamic) {
    GE_TWIN_LOGE("create_dynamic_output: op '%s' has no dynamic output '%s'",
                 impl_ == nullptr ? "" : impl_->name.c_str(), SafeName(name));
    return;
  }
  InsertInstances(impl_->outputs[ir], num, is_push_back);
}

void Operator::DataTypeRegister(const char *datatype_symbol, const TensorType &type_range) {
  if (impl_ == nullptr || datatype_symbol == nullptr) return;
  impl_->datatype_symbols.emplace_back(datatype_symbol, type_range.types);
}
OperatorImpl::~OperatorImpl() {
  std::vector<std::shared_ptr<OperatorImpl>> pending;
  auto detach_inputs = [&pending](OperatorImpl &op) {
    for (auto &slots : op.inputs) {
      for (auto &slot : slots) {
        if (slot.src) pending.push_back(std::move(slot.src));
      }
    }
  };
  detach_inputs(*this);
  while (!pending.empty()) {
    std::shared_ptr<OperatorImpl> op = std::move(pending.back());
    pending.pop_back();
    // The last owner: take its producers out first, so its destruction recurses no further.
    if (op.use_count() == 1) detach_inputs(*op);
  }
}

}  // namespace ge

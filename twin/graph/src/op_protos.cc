#include "op_protos.h"

#include <cmath>
#include <map>

#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "operator_impl.h"
#include "register/op_impl_registry.h"
#include "op_factory.h"
#include "op_impl_registry.h"
#include "type_names.h"

namespace ge_twin {
namespace {
using ge::AttrValue;
using ge::IrInputKind;
using ge::IrOutputKind;
using ge::OperatorImpl;

const char *InputKindName(IrInputKind kind) {
  switch (kind) {
    case IrInputKind::kRequired: return "REQUIRED";
    case IrInputKind::kOptional: return "OPTIONAL";
    default: return "DYNAMIC";
  }
}

json::Value DtypeList(const std::vector<ge::DataType> &dtypes) {
  json::Value list = json::Value::Array();
  for (ge::DataType dt : dtypes) list.Append(json::Value::String(DataTypeName(dt)));
  return list;
}

json::Value IntList(const std::vector<int64_t> &values) {
  json::Value list = json::Value::Array();
  for (int64_t v : values) list.Append(json::Value::Int(v));
  return list;
}

json::Value AttrToJson(const AttrValue &value) {
  struct Visitor {
    json::Value operator()(const std::monostate &) const { return json::Value(); }
    json::Value operator()(int64_t v) const { return json::Value::Int(v); }
    json::Value operator()(float v) const { return json::Value::Number(v); }
    json::Value operator()(bool v) const { return json::Value::Bool(v); }
    json::Value operator()(const std::string &v) const { return json::Value::String(v); }
    json::Value operator()(ge::DataType v) const { return json::Value::String(DataTypeName(v)); }
    json::Value operator()(const ge::Tensor &v) const {
      json::Value t = json::Value::Object();
      t.Set("shape", IntList(v.GetTensorDesc().GetShape().GetDims()));
      t.Set("dtype", json::Value::String(DataTypeName(v.GetTensorDesc().GetDataType())));
      t.Set("size", json::Value::Int(static_cast<int64_t>(v.GetSize())));
      return t;
    }
    json::Value operator()(const std::vector<int64_t> &v) const { return IntList(v); }
    json::Value operator()(const std::vector<float> &v) const {
      json::Value list = json::Value::Array();
      for (float x : v) list.Append(json::Value::Number(x));
      return list;
    }
    json::Value operator()(const std::vector<bool> &v) const {
      json::Value list = json::Value::Array();
      for (bool x : v) list.Append(json::Value::Bool(x));
      return list;
    }
    json::Value operator()(const std::vector<std::string> &v) const {
      json::Value list = json::Value::Array();
      for (const auto &x : v) list.Append(json::Value::String(x));
      return list;
    }
    json::Value operator()(const std::vector<ge::DataType> &v) const { return DtypeList(v); }
    json::Value operator()(const std::vector<std::vector<int64_t>> &v) const {
      json::Value list = json::Value::Array();
      for (const auto &row : v) list.Append(IntList(row));
      return list;
    }
  };
  return std::visit(Visitor{}, value);
}

json::Value TypeJson(const std::string &type_argument, const OperatorImpl &op) {
  std::vector<ge::DataType> dtypes;
  if (!ResolveTypeArgument(type_argument, op.datatype_symbols, &dtypes)) return json::Value();
  return DtypeList(dtypes);
}

json::Value ProtoToJson(const OperatorImpl &op) {
  json::Value proto = json::Value::Object();
  proto.Set("op_type", json::Value::String(op.type));
  json::Value inputs = json::Value::Array();
  for (const auto &ir : op.ir_inputs) {
    json::Value in = json::Value::Object();
    in.Set("name", json::Value::String(ir.name));
    in.Set("kind", json::Value::String(InputKindName(ir.kind)));
    in.Set("type", json::Value::String(ir.type));
    in.Set("dtypes", TypeJson(ir.type, op));
    inputs.Append(std::move(in));
  }
  proto.Set("inputs", std::move(inputs));
  json::Value outputs = json::Value::Array();
  for (const auto &ir : op.ir_outputs) {
    json::Value out = json::Value::Object();
    out.Set("name", json::Value::String(ir.name));
    out.Set("kind", json::Value::String(ir.kind == IrOutputKind::kDynamic ? "DYNAMIC" : "REQUIRED"));
    out.Set("type", json::Value::String(ir.type));
    out.Set("dtypes", TypeJson(ir.type, op));
    outputs.Append(std::move(out));
  }
  proto.Set("outputs", std::move(outputs));
  json::Value attrs = json::Value::Array();
  for (const auto &ir : op.ir_attrs) {
    json::Value attr = json::Value::Object();
    attr.Set("name", json::Value::String(ir.name));
    attr.Set("type", json::Value::String(ir.type));
    attr.Set("value_type", json::Value::String(ge::AttrTypeToValueTypeName(ir.type)));
    attr.Set("required", json::Value::Bool(ir.required));
    if (!ir.required) attr.Set("default", AttrToJson(ir.default_value));
    attrs.Append(std::move(attr));
  }
  proto.Set("attrs", std::move(attrs));
  json::Value symbols = json::Value::Object();
  for (const auto &symbol : op.datatype_symbols) symbols.Set(symbol.first, DtypeList(symbol.second));
  proto.Set("datatypes", std::move(symbols));
  gert::OpImplKernelRegistry::OpImplFunctions functions;
  bool has_impl = FindOpImpl(op.type, &functions);
  proto.Set("has_infer_shape", json::Value::Bool(has_impl && functions.infer_shape != nullptr));
  proto.Set("has_infer_datatype", json::Value::Bool(has_impl && functions.infer_datatype != nullptr));
  return proto;
}

CallError Invalid(const std::string &message) { return CallError{ge::GRAPH_PARAM_INVALID, message}; }

// ---- request decoding ----

bool JsonDtype(const json::Value &v, ge::DataType *dt) {
  if (v.IsString()) return DataTypeFromName(v.AsString(), dt);
  if (v.IsInteger() && v.AsInt() >= 0 && v.AsInt() < ge::DT_MAX && DataTypeName(static_cast<ge::DataType>(v.AsInt()))[0]) {
    *dt = static_cast<ge::DataType>(v.AsInt());
    return true;
  }
  return false;
}

CallError DecodeTensor(const json::Value &v, const std::string &where, gert::Shape *shape, ge::DataType *dt) {
  if (!v.IsObject()) return Invalid(where + " must be an object {\"shape\": [...], \"dtype\": ...}");
  const json::Value *dims = v.Find("shape");
  if (dims == nullptr || !dims->IsArray()) return Invalid(where + ".shape must be a list of integers");
  if (dims->Items().size() > gert::Shape::kMaxDimNum) {
    return Invalid(where + ".shape has more than " + std::to_string(gert::Shape::kMaxDimNum) + " dims");
  }
  *shape = gert::Shape();
  for (const auto &d : dims->Items()) {
    if (!d.IsInteger() || d.AsInt() < -2) return Invalid(where + ".shape must hold integers >= -2");
    shape->AppendDim(d.AsInt());
  }
  const json::Value *dtype = v.Find("dtype");
  if (dtype == nullptr || !JsonDtype(*dtype, dt)) return Invalid(where + ".dtype must be a DataType name like \"DT_FLOAT\"");
  return CallError();
}

bool JsonIntList(const json::Value &v, std::vector<int64_t> *out) {
  if (!v.IsArray()) return false;
  out->clear();
  for (const auto &item : v.Items()) {
    if (!item.IsInteger()) return false;
    out->push_back(item.AsInt());
  }
  return true;
}

// Converts a JSON attr value to the IR attr's type.
CallError DecodeAttrValue(const json::Value &v, const std::string &type, const std::string &where, AttrValue *out) {
  auto bad = [&]() { return Invalid(where + " must be of type " + type); };
  if (type == "Int") {
    if (!v.IsInteger()) return bad();
    *out = v.AsInt();
  } else if (type == "Float") {
    if (!v.IsNumber()) return bad();
    *out = static_cast<float>(v.AsDouble());
  } else if (type == "Bool") {
    if (!v.IsBool()) return bad();
    *out = v.AsBool();
  } else if (type == "String" || type == "AscendString") {
    if (!v.IsString()) return bad();
    *out = v.AsString();
  } else if (type == "Type") {
    ge::DataType dt;
    if (!JsonDtype(v, &dt)) return bad();
    *out = dt;
  } else if (type == "ListInt") {
    std::vector<int64_t> values;
    if (!JsonIntList(v, &values)) return bad();
    *out = values;
  } else if (type == "ListFloat") {
    if (!v.IsArray()) return bad();
    std::vector<float> values;
    for (const auto &item : v.Items()) {
      if (!item.IsNumber()) return bad();
      values.push_back(static_cast<float>(item.AsDouble()));
    }
    *out = values;
  } else if (type == "ListBool") {
    if (!v.IsArray()) return bad();
    std::vector<bool> values;
    for (const auto &item : v.Items()) {
      if (!item.IsBool()) return bad();
      values.push_back(item.AsBool());
    }
    *out = values;
  } else if (type == "ListString" || type == "ListAscendString") {
    if (!v.IsArray()) return bad();
    std::vector<std::string> values;
    for (const auto &item : v.Items()) {
      if (!item.IsString()) return bad();
      values.push_back(item.AsString());
    }
    *out = values;
  } else if (type == "ListType") {
    if (!v.IsArray()) return bad();
    std::vector<ge::DataType> values;
    for (const auto &item : v.Items()) {
      ge::DataType dt;
      if (!JsonDtype(item, &dt)) return bad();
      values.push_back(dt);
    }
    *out = values;
  } else if (type == "ListListInt") {
    if (!v.IsArray()) return bad();
    std::vector<std::vector<int64_t>> rows;
    for (const auto &item : v.Items()) {
      std::vector<int64_t> row;
      if (!JsonIntList(item, &row)) return bad();
      rows.push_back(row);
    }
    *out = rows;
  } else {
    return Invalid(where + ": attr type " + type + " cannot be passed through the C ABI");
  }
  return CallError();
}

// What gert::RuntimeAttrs can hold; other kinds read as nullptr from inference functions.
gert::RuntimeAttrs::Value ToRuntimeAttr(const AttrValue &value) {
  if (auto v = std::get_if<int64_t>(&value)) return *v;
  if (auto v = std::get_if<float>(&value)) return *v;
  if (auto v = std::get_if<bool>(&value)) return *v;
  if (auto v = std::get_if<std::string>(&value)) return *v;
  if (auto v = std::get_if<ge::DataType>(&value)) return *v;
  if (auto v = std::get_if<std::vector<int64_t>>(&value)) return gert::TypedContinuousVector<int64_t>(*v);
  if (auto v = std::get_if<std::vector<float>>(&value)) return gert::TypedContinuousVector<float>(*v);
  if (auto v = std::get_if<std::vector<bool>>(&value)) return gert::TypedContinuousVector<bool>(*v);
  return std::monostate();
}

std::string StatusText(uint32_t status) {
  std::string text = std::to_string(status);
  if (status == ge::GRAPH_FAILED) text += " (GRAPH_FAILED)";
  if (status == ge::GRAPH_PARAM_INVALID) text += " (GRAPH_PARAM_INVALID)";
  return text;
}

// Checks input dtypes against the IR's allowed sets and DATATYPE symbol consistency.
CallError CheckInputDtypes(const OperatorImpl &op, const gert::InferContextFrame &frame) {
  std::map<std::string, std::pair<std::string, ge::DataType>> symbol_binding;  // symbol -> (input, dtype)
  for (size_t ir = 0; ir < op.ir_inputs.size(); ++ir) {
    const auto &def = op.ir_inputs[ir];
    std::vector<ge::DataType> allowed;
    bool resolved = ResolveTypeArgument(def.type, op.datatype_symbols, &allowed);
    std::string symbol = TypeSymbol(def.type, op.datatype_symbols);
    const auto &range = frame.input_ir_ranges[ir];
    for (size_t rel = 0; rel < range.count; ++rel) {
      ge::DataType dt = frame.input_dtypes[range.start + rel];
      std::string instance = op.InputInstanceName(ir, rel);
      bool ok = !resolved;
      for (ge::DataType a : allowed) ok = ok || a == dt;
      if (!ok) {
        return Invalid("op '" + op.type + "' input '" + instance + "' has dtype " + DataTypeName(dt) +
                       ", not allowed by its type " + def.type);
      }
      if (symbol.empty()) continue;
      auto bound = symbol_binding.emplace(symbol, std::make_pair(instance, dt));
      if (!bound.second && bound.first->second.second != dt) {
        return Invalid("op '" + op.type + "' inputs '" + bound.first->second.first + "' and '" + instance +
                       "' share type " + symbol + " but have dtypes " + DataTypeName(bound.first->second.second) +
                       " and " + DataTypeName(dt));
      }
    }
  }
  return CallError();
}

// Output dtypes without an InferDataType function: from an input bound to the same symbol, or
// from a type allowing exactly one dtype.
CallError DeriveOutputDtypes(const OperatorImpl &op, gert::InferContextFrame *frame) {
  for (size_t ir = 0; ir < op.ir_outputs.size(); ++ir) {
    const auto &def = op.ir_outputs[ir];
    ge::DataType dt = ge::DT_UNDEFINED;
    std::string symbol = TypeSymbol(def.type, op.datatype_symbols);
    for (size_t in = 0; in < op.ir_inputs.size() && dt == ge::DT_UNDEFINED && !symbol.empty(); ++in) {
      const auto &range = frame->input_ir_ranges[in];
      if (range.count > 0 && TypeSymbol(op.ir_inputs[in].type, op.datatype_symbols) == symbol) {
        dt = frame->input_dtypes[range.start];
      }
    }
    std::vector<ge::DataType> allowed;
    if (dt == ge::DT_UNDEFINED && ResolveTypeArgument(def.type, op.datatype_symbols, &allowed) && allowed.size() == 1) {
      dt = allowed[0];
    }
    if (dt == ge::DT_UNDEFINED) {
      return CallError{ge::OP_WITHOUT_IR_DATATYPE_INFER_RULE,
                       "op '" + op.type + "' has no IMPL_OP InferDataType and the dtype of output '" + def.name +
                           "' (type " + def.type + ") cannot be derived from its inputs"};
    }
    const auto &range = frame->output_ir_ranges[ir];
    for (size_t rel = 0; rel < range.count; ++rel) frame->output_dtypes[range.start + rel] = dt;
  }
  return CallError();
}
}  // namespace

json::Value ListOpProtos() {
  json::Value root = json::Value::Object();
  root.Set("abi_version", json::Value::Int(1));
  json::Value ops = json::Value::Array();
  for (const auto &type : RegisteredOperatorTypes()) {
    ge::Operator op;
    if (!CreateRegisteredOperator(type, type, &op)) continue;
    const auto &impl = ge::OperatorInternal::Impl(op);
    if (impl == nullptr) continue;
    ops.Append(ProtoToJson(*impl));
  }
  root.Set("ops", std::move(ops));
  return root;
}

CallError InferOp(const json::Value &request, json::Value *response) {
  if (!request.IsObject()) return Invalid("inference request must be a JSON object");
  const json::Value *type_value = request.Find("op_type");
  if (type_value == nullptr || !type_value->IsString()) return Invalid("inference request needs a string \"op_type\"");
  const std::string type = type_value->AsString();
  std::string node_name = type;
  if (const json::Value *n = request.Find("node_name")) {
    if (!n->IsString()) return Invalid("\"node_name\" must be a string");
    node_name = n->AsString();
  }

  ge::Operator op;
  if (!CreateRegisteredOperator(type, node_name, &op)) {
    return Invalid("op type '" + type + "' is not registered (no loaded OPP library declares REG_OP(" + type + "))");
  }
  const OperatorImpl &ir = *ge::OperatorInternal::Impl(op);
  gert::OpImplKernelRegistry::OpImplFunctions functions;
  if (!FindOpImpl(type, &functions) || (functions.infer_shape == nullptr && functions.infer_datatype == nullptr)) {
    return Invalid("op type '" + type + "' has no IMPL_OP registration (IMPL_OP(" + type +
                   ").InferShape(...).InferDataType(...) in its OPP library)");
  }
  if (functions.infer_shape == nullptr) return Invalid("op type '" + type + "' has no IMPL_OP InferShape function");

  gert::InferContextFrame frame;
  frame.node_name = node_name;
  frame.node_type = type;

  // Inputs, one JSON entry per IR input.
  const json::Value *inputs = request.Find("inputs");
  static const json::Value kEmptyList = json::Value::Array();
  if (inputs == nullptr) inputs = &kEmptyList;
  if (!inputs->IsArray()) return Invalid("\"inputs\" must be a list with one entry per IR input");
  if (inputs->Items().size() != ir.ir_inputs.size()) {
    return Invalid("op '" + type + "' has " + std::to_string(ir.ir_inputs.size()) + " IR inputs, the request gives " +
                   std::to_string(inputs->Items().size()));
  }
  for (size_t i = 0; i < ir.ir_inputs.size(); ++i) {
    const auto &def = ir.ir_inputs[i];
    const json::Value &entry = inputs->Items()[i];
    gert::IrInstanceRange range{frame.input_shapes.size(), 0};
    std::vector<const json::Value *> instances;
    if (def.kind == IrInputKind::kDynamic) {
      if (!entry.IsArray()) return Invalid("dynamic input '" + def.name + "' of op '" + type + "' needs a list");
      for (const auto &item : entry.Items()) instances.push_back(&item);
    } else if (entry.IsNull()) {
      if (def.kind == IrInputKind::kRequired) {
        return Invalid("required input '" + def.name + "' of op '" + type + "' is missing");
      }
    } else {
      instances.push_back(&entry);
    }
    for (size_t rel = 0; rel < instances.size(); ++rel) {
      gert::Shape shape;
      ge::DataType dt;
      CallError err = DecodeTensor(*instances[rel], "input '" + ir.InputInstanceName(i, rel) + "'", &shape, &dt);
      if (!err.ok()) return err;
      frame.input_shapes.push_back(shape);
      frame.input_dtypes.push_back(dt);
    }
    range.count = instances.size();
    frame.input_ir_ranges.push_back(range);
  }
  CallError dtype_check = CheckInputDtypes(ir, frame);
  if (!dtype_check.ok()) return dtype_check;

  // Outputs.
  const json::Value *counts = request.Find("dynamic_output_counts");
  if (counts != nullptr && !counts->IsObject()) return Invalid("\"dynamic_output_counts\" must be an object");
  for (const auto &def : ir.ir_outputs) {
    size_t n = 1;
    if (def.kind == IrOutputKind::kDynamic) {
      const json::Value *c = counts == nullptr ? nullptr : counts->Find(def.name);
      if (c == nullptr || !c->IsInteger() || c->AsInt() < 0) {
        return Invalid("dynamic output '" + def.name + "' of op '" + type + "' needs a count in dynamic_output_counts");
      }
      n = static_cast<size_t>(c->AsInt());
    }
    frame.output_ir_ranges.push_back(gert::IrInstanceRange{frame.output_shapes.size(), n});
    frame.output_shapes.resize(frame.output_shapes.size() + n);
    frame.output_dtypes.resize(frame.output_dtypes.size() + n, ge::DT_UNDEFINED);
  }

  // Attrs: IR defaults, overridden by the request.
  std::map<std::string, AttrValue> attrs;
  for (const auto &def : ir.ir_attrs) {
    if (!def.required) attrs[def.name] = def.default_value;
  }
  if (const json::Value *given = request.Find("attrs")) {
    if (!given->IsObject()) return Invalid("\"attrs\" must be an object");
    for (const auto &member : given->Members()) {
      const ge::IrAttr *def = nullptr;
      for (const auto &d : ir.ir_attrs) {
        if (d.name == member.first) def = &d;
      }
      if (def == nullptr) return Invalid("op '" + type + "' has no attribute '" + member.first + "'");
      CallError err = DecodeAttrValue(member.second, def->type, "attr '" + member.first + "'", &attrs[member.first]);
      if (!err.ok()) return err;
    }
  }
  for (const auto &def : ir.ir_attrs) {
    auto it = attrs.find(def.name);
    if (it == attrs.end() || it->second.index() == 0) {
      return Invalid("required attribute '" + def.name + "' of op '" + type + "' is not set");
    }
    frame.attrs.Append(ToRuntimeAttr(it->second));
  }

  gert::InferShapeContext shape_ctx(&frame);
  uint32_t status = functions.infer_shape(&shape_ctx);
  if (status != ge::GRAPH_SUCCESS) {
    return CallError{ge::GRAPH_FAILED, "InferShape of op '" + type + "' (node '" + node_name +
                                           "') failed with status " + StatusText(status)};
  }
  if (functions.infer_datatype != nullptr) {
    gert::InferDataTypeContext dtype_ctx(&frame);
    status = functions.infer_datatype(&dtype_ctx);
    if (status != ge::GRAPH_SUCCESS) {
      return CallError{ge::GRAPH_FAILED, "InferDataType of op '" + type + "' (node '" + node_name +
                                             "') failed with status " + StatusText(status)};
    }
  } else {
    CallError err = DeriveOutputDtypes(ir, &frame);
    if (!err.ok()) return err;
  }

  json::Value outputs = json::Value::Array();
  for (size_t i = 0; i < ir.ir_outputs.size(); ++i) {
    const auto &range = frame.output_ir_ranges[i];
    for (size_t rel = 0; rel < range.count; ++rel) {
      const size_t index = range.start + rel;
      const std::string name = ir.ir_outputs[i].kind == IrOutputKind::kDynamic
                                   ? ir.ir_outputs[i].name + std::to_string(rel)
                                   : ir.ir_outputs[i].name;
      if (frame.output_dtypes[index] == ge::DT_UNDEFINED) {
        return CallError{ge::GRAPH_FAILED, "InferDataType of op '" + type + "' left the dtype of output '" + name + "' unset"};
      }
      json::Value out = json::Value::Object();
      out.Set("name", json::Value::String(name));
      out.Set("ir_name", json::Value::String(ir.ir_outputs[i].name));
      out.Set("ir_index", json::Value::Int(static_cast<int64_t>(i)));
      const gert::Shape &shape = frame.output_shapes[index];
      json::Value dims = json::Value::Array();
      for (size_t d = 0; d < shape.GetDimNum(); ++d) dims.Append(json::Value::Int(shape.GetDim(d)));
      out.Set("shape", std::move(dims));
      out.Set("dtype", json::Value::String(DataTypeName(frame.output_dtypes[index])));
      outputs.Append(std::move(out));
    }
  }
  *response = json::Value::Object();
  response->Set("op_type", json::Value::String(type));
  response->Set("outputs", std::move(outputs));
  return CallError();
}
}  // namespace ge_twin

#include "op_infer.h"

#include <map>
#include <set>

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
        return Invalid(std::string("op '")
                           .append(op.type)
                           .append("' inputs '")
                           .append(bound.first->second.first)
                           .append("' and '")
                           .append(instance)
                           .append("' share type ")
                           .append(symbol)
                           .append(" but have dtypes ")
                           .append(DataTypeName(bound.first->second.second))
                           .append(" and ")
                           .append(DataTypeName(dt)));
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
// Fills the frame's inputs from the call's per-IR instances, refusing what the IR does not allow.
CallError FillInputs(const OperatorImpl &ir, const InferCall &call, gert::InferContextFrame *frame) {
  const std::string &type = ir.type;
  if (call.inputs.size() != ir.ir_inputs.size()) {
    return Invalid("op '" + type + "' has " + std::to_string(ir.ir_inputs.size()) + " IR inputs, the request gives " +
                   std::to_string(call.inputs.size()));
  }
  for (size_t i = 0; i < ir.ir_inputs.size(); ++i) {
    const auto &def = ir.ir_inputs[i];
    const auto &instances = call.inputs[i];
    if (def.kind == IrInputKind::kRequired && instances.empty()) {
      return Invalid("required input '" + def.name + "' of op '" + type + "' is missing");
    }
    if (def.kind != IrInputKind::kDynamic && instances.size() > 1) {
      return Invalid("input '" + def.name + "' of op '" + type + "' is not dynamic, the request gives " +
                     std::to_string(instances.size()) + " tensors");
    }
    frame->input_ir_ranges.push_back(gert::IrInstanceRange{frame->input_shapes.size(), instances.size()});
    for (size_t rel = 0; rel < instances.size(); ++rel) {
      const std::string where = "input '" + ir.InputInstanceName(i, rel) + "' of op '" + type + "'";
      const TensorMeta &meta = instances[rel];
      if (meta.dims.size() > gert::Shape::kMaxDimNum) {
        return Invalid(where + " has " + std::to_string(meta.dims.size()) + " dims, more than " +
                       std::to_string(gert::Shape::kMaxDimNum));
      }
      gert::Shape shape;
      for (int64_t d : meta.dims) {
        if (d < -2) return Invalid(where + " has dim " + std::to_string(d) + "; dims must be >= -2");
        shape.AppendDim(d);
      }
      frame->input_shapes.push_back(shape);
      frame->input_dtypes.push_back(meta.dtype);
    }
  }
  return CheckInputDtypes(ir, *frame);
}

CallError FillOutputs(const OperatorImpl &ir, const InferCall &call, gert::InferContextFrame *frame) {
  std::map<std::string, uint32_t> counts;
  for (const auto &entry : call.dynamic_output_counts) {
    int index = ir.FindIrOutput(entry.first);
    if (index < 0 || ir.ir_outputs[index].kind != IrOutputKind::kDynamic) {
      return Invalid("dynamic_output_counts names '" + entry.first + "', which is not a dynamic output of op '" +
                     ir.type + "'");
    }
    if (!counts.emplace(entry.first, entry.second).second) {
      return Invalid("dynamic_output_counts names '" + entry.first + "' twice");
    }
  }
  for (const auto &def : ir.ir_outputs) {
    size_t n = 1;
    if (def.kind == IrOutputKind::kDynamic) {
      auto it = counts.find(def.name);
      if (it == counts.end()) {
        return Invalid("dynamic output '" + def.name + "' of op '" + ir.type +
                       "' needs a count in dynamic_output_counts");
      }
      n = it->second;
    }
    frame->output_ir_ranges.push_back(gert::IrInstanceRange{frame->output_shapes.size(), n});
    frame->output_shapes.resize(frame->output_shapes.size() + n);
    frame->output_dtypes.resize(frame->output_dtypes.size() + n, ge::DT_UNDEFINED);
  }
  return CallError();
}

// IR defaults overridden by the call's attrs; every value must be of its IR attr's type.
CallError FillAttrs(const OperatorImpl &ir, const InferCall &call, gert::InferContextFrame *frame) {
  std::map<std::string, AttrValue> attrs;
  for (const auto &def : ir.ir_attrs) {
    if (!def.required) attrs[def.name] = def.default_value;
  }
  std::set<std::string> given;
  for (const auto &entry : call.attrs) {
    const ge::IrAttr *def = nullptr;
    for (const auto &d : ir.ir_attrs) {
      if (d.name == entry.first) def = &d;
    }
    if (def == nullptr) return Invalid("op '" + ir.type + "' has no attribute '" + entry.first + "'");
    if (!given.insert(entry.first).second) return Invalid("attr '" + entry.first + "' is given twice");
    // String and AscendString (and their lists) share one value kind, as in Python's IR.
    const std::string have = ge::AttrTypeToValueTypeName(ge::AttrValueTypeName(entry.second));
    if (have != ge::AttrTypeToValueTypeName(def->type)) {
      return Invalid("attr '" + entry.first + "' of op '" + ir.type + "' must be of type " + def->type +
                     ", the request gives " +
                     (have.empty() ? std::string("no value") : ge::AttrValueTypeName(entry.second)));
    }
    attrs[entry.first] = entry.second;
  }
  for (const auto &def : ir.ir_attrs) {
    auto it = attrs.find(def.name);
    if (it == attrs.end() || it->second.index() == 0) {
      return Invalid("required attribute '" + def.name + "' of op '" + ir.type + "' is not set");
    }
    frame->attrs.Append(ToRuntimeAttr(it->second));
  }
  return CallError();
}
}  // namespace

CallError InferOp(const InferCall &call, std::vector<InferredOutput> *outputs) {
  const std::string &type = call.op_type;
  if (type.empty()) return Invalid("inference request has no op_type");
  const std::string node_name = call.node_name.empty() ? type : call.node_name;
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
  for (auto fill : {FillInputs, FillOutputs, FillAttrs}) {
    CallError err = fill(ir, call, &frame);
    if (!err.ok()) return err;
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

  outputs->clear();
  for (size_t i = 0; i < ir.ir_outputs.size(); ++i) {
    const auto &range = frame.output_ir_ranges[i];
    for (size_t rel = 0; rel < range.count; ++rel) {
      const size_t index = range.start + rel;
      InferredOutput out;
      out.name = ir.OutputInstanceName(i, rel);
      if (frame.output_dtypes[index] == ge::DT_UNDEFINED) {
        return CallError{ge::GRAPH_FAILED,
                         "InferDataType of op '" + type + "' left the dtype of output '" + out.name + "' unset"};
      }
      out.ir_name = ir.ir_outputs[i].name;
      out.ir_index = static_cast<uint32_t>(i);
      const gert::Shape &shape = frame.output_shapes[index];
      for (size_t d = 0; d < shape.GetDimNum(); ++d) out.dims.push_back(shape.GetDim(d));
      out.dtype = frame.output_dtypes[index];
      outputs->push_back(std::move(out));
    }
  }
  return CallError();
}
}  // namespace ge_twin

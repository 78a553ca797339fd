#include "c_api_codec.h"

#include <utility>

#include "air_values.h"
#include "graph_impl.h"
#include "op_factory.h"
#include "op_impl_registry.h"
#include "operator_impl.h"
#include "type_names.h"

namespace ge_twin {
namespace {
using ge::OperatorImpl;
namespace air = ::ge::twin::air;

void EncodeDtypes(const std::vector<ge::DataType> &dtypes, air::ListDataType *out) {
  for (ge::DataType dt : dtypes) out->add_values(static_cast<int32_t>(dt));
}

void EncodeParam(const std::string &name, int kind, const std::string &type, const OperatorImpl &op,
                 capi::IrParam *out) {
  out->set_name(name);
  out->set_kind(static_cast<capi::IrKind>(kind));
  out->set_type(type);
  std::vector<ge::DataType> allowed;  // left absent when the type argument cannot be resolved
  if (ResolveTypeArgument(type, op.datatype_symbols, &allowed)) EncodeDtypes(allowed, out->mutable_dtypes());
}

void EncodeOpProto(const OperatorImpl &op, capi::OpProto *out) {
  out->set_op_type(op.type);
  for (const auto &ir : op.ir_inputs) EncodeParam(ir.name, static_cast<int>(ir.kind), ir.type, op, out->add_inputs());
  for (const auto &ir : op.ir_outputs) {
    // IrOutputKind's kDynamic is 1; the wire's IrKind keeps one numbering for inputs and outputs.
    const int kind = ir.kind == ge::IrOutputKind::kDynamic ? capi::IR_DYNAMIC : capi::IR_REQUIRED;
    EncodeParam(ir.name, kind, ir.type, op, out->add_outputs());
  }
  for (const auto &ir : op.ir_attrs) {
    capi::IrAttr *attr = out->add_attrs();
    attr->set_name(ir.name);
    attr->set_type(ir.type);
    attr->set_value_type(ge::AttrTypeToValueTypeName(ir.type));
    attr->set_required(ir.required);
    if (!ir.required) ge::EncodeAttr(ir.default_value, attr->mutable_default_value());
  }
  for (const auto &symbol : op.datatype_symbols) {
    capi::DataTypeSymbol *s = out->add_datatypes();
    s->set_name(symbol.first);
    EncodeDtypes(symbol.second, s->mutable_dtypes());
  }
  gert::OpImplKernelRegistry::OpImplFunctions functions;
  const bool has_impl = FindOpImpl(op.type, &functions);
  out->set_has_infer_shape(has_impl && functions.infer_shape != nullptr);
  out->set_has_infer_datatype(has_impl && functions.infer_datatype != nullptr);
}

bool ValidDataType(int32_t value) {
  return value >= 0 && value < ge::DT_MAX && DataTypeName(static_cast<ge::DataType>(value))[0] != '\0';
}
}  // namespace

void EncodeOpProtoList(capi::OpProtoList *out) {
  out->set_abi_version(1);
  for (const auto &type : RegisteredOperatorTypes()) {
    ge::Operator op;
    if (!CreateRegisteredOperator(type, type, &op)) continue;
    const auto &impl = ge::OperatorInternal::Impl(op);
    if (impl != nullptr) EncodeOpProto(*impl, out->add_ops());
  }
}

CallError DecodeInferRequest(const capi::InferRequest &in, InferCall *out) {
  out->op_type = in.op_type();
  out->node_name = in.node_name();
  out->inputs.clear();
  for (int i = 0; i < in.inputs_size(); ++i) {
    std::vector<TensorMeta> instances;
    for (const auto &meta : in.inputs(i).instances()) {
      if (!ValidDataType(meta.dtype())) {
        return Invalid("inputs[" + std::to_string(i) + "] has dtype " + std::to_string(meta.dtype()) +
                       ", which is no ge::DataType value");
      }
      instances.push_back(TensorMeta{std::vector<int64_t>(meta.shape().begin(), meta.shape().end()),
                                     static_cast<ge::DataType>(meta.dtype())});
    }
    out->inputs.push_back(std::move(instances));
  }
  out->attrs.clear();
  for (const auto &attr : in.attrs()) {
    ge::AttrValue value;
    std::string err = ge::DecodeAttr(attr.value(), "attr '" + attr.name() + "'", &value);
    if (!err.empty()) return Invalid(err);
    out->attrs.emplace_back(attr.name(), std::move(value));
  }
  out->dynamic_output_counts.clear();
  for (const auto &count : in.dynamic_output_counts())
    out->dynamic_output_counts.emplace_back(count.name(), count.count());
  return CallError();
}

void EncodeInferResponse(const std::string &op_type, const std::vector<InferredOutput> &outputs,
                         capi::InferResponse *out) {
  out->set_op_type(op_type);
  for (const auto &o : outputs) {
    capi::InferredOutput *item = out->add_outputs();
    item->set_name(o.name);
    item->set_ir_name(o.ir_name);
    item->set_ir_index(o.ir_index);
    for (int64_t d : o.dims) item->add_shape(d);
    item->set_dtype(static_cast<int32_t>(o.dtype));
  }
}

std::string DescribeAir(const std::string &bytes, const std::string &source, capi::AirDescription *out) {
  ge::GraphImpl graph;
  std::string err = ge::DecodeAir(bytes, source, &graph);
  if (!err.empty()) return err;
  std::vector<std::shared_ptr<OperatorImpl>> nodes;
  err = ge::CollectNodes(graph, &nodes);
  if (!err.empty()) return err;
  out->set_name(graph.name);
  for (const auto &op : nodes) {
    capi::AirNode *node = out->add_nodes();
    node->set_name(op->name);
    node->set_type(op->type);
    for (size_t ir = 0; ir < op->inputs.size(); ++ir) {
      for (size_t rel = 0; rel < op->inputs[ir].size(); ++rel) {
        const auto &slot = op->inputs[ir][rel];
        capi::AirNodeInput *in = node->add_inputs();
        in->set_name(op->InputInstanceName(ir, rel));
        in->set_connected(slot.src != nullptr);
        if (slot.src != nullptr) in->set_src_node(slot.src->name);
        in->set_src_index(slot.src_index);
        ge::EncodeDesc(slot.desc, in->mutable_desc());
      }
    }
    for (size_t ir = 0; ir < op->outputs.size(); ++ir) {
      for (size_t rel = 0; rel < op->outputs[ir].size(); ++rel) {
        capi::AirNodeOutput *o = node->add_outputs();
        o->set_name(op->OutputInstanceName(ir, rel));
        ge::EncodeDesc(op->outputs[ir][rel], o->mutable_desc());
      }
    }
    for (const auto &attr : op->attrs) {  // std::map: sorted by name
      capi::AirAttrType *t = node->add_attr_types();
      t->set_name(attr.first);
      t->set_type(ge::AttrValueTypeName(attr.second));
    }
  }
  for (const auto &in : graph.inputs) out->add_inputs(in->name);
  for (const auto &o : graph.outputs) {
    air::OutputRef *ref = out->add_outputs();
    ref->set_node(o.op->name);
    ref->set_index(o.index);
  }
  return "";
}
}  // namespace ge_twin

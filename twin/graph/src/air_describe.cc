// JSON description of an AIR file (for tests, debugging and non-protobuf callers).
#include "air_describe.h"

#include "graph_impl.h"
#include "type_names.h"

namespace ge_twin {
namespace {
json::Value IntList(const std::vector<int64_t> &values) {
  json::Value list = json::Value::Array();
  for (int64_t v : values) list.Append(json::Value::Int(v));
  return list;
}

json::Value DescJson(const ge::TensorDesc &desc) {
  json::Value d = json::Value::Object();
  d.Set("shape", IntList(desc.GetShape().GetDims()));
  d.Set("dtype", json::Value::String(DataTypeName(desc.GetDataType())));
  d.Set("format", json::Value::Int(desc.GetFormat()));
  d.Set("origin_shape", IntList(desc.GetOriginShape().GetDims()));
  d.Set("origin_format", json::Value::Int(desc.GetOriginFormat()));
  return d;
}
}  // namespace

std::string DescribeAir(const std::string &bytes, const std::string &source, json::Value *out) {
  ge::GraphImpl graph;
  std::string err = ge::DecodeAir(bytes, source, &graph);
  if (!err.empty()) return err;
  std::vector<std::shared_ptr<ge::OperatorImpl>> nodes;
  err = ge::CollectNodes(graph, &nodes);
  if (!err.empty()) return err;
  *out = json::Value::Object();
  out->Set("name", json::Value::String(graph.name));
  json::Value node_list = json::Value::Array();
  for (const auto &op : nodes) {
    json::Value node = json::Value::Object();
    node.Set("name", json::Value::String(op->name));
    node.Set("type", json::Value::String(op->type));
    json::Value inputs = json::Value::Array();
    for (size_t ir = 0; ir < op->inputs.size(); ++ir) {
      for (size_t rel = 0; rel < op->inputs[ir].size(); ++rel) {
        const auto &slot = op->inputs[ir][rel];
        json::Value in = json::Value::Object();
        in.Set("name", json::Value::String(op->InputInstanceName(ir, rel)));
        in.Set("src_node", slot.src == nullptr ? json::Value() : json::Value::String(slot.src->name));
        in.Set("src_index", json::Value::Int(slot.src_index));
        in.Set("desc", DescJson(slot.desc));
        inputs.Append(std::move(in));
      }
    }
    node.Set("inputs", std::move(inputs));
    json::Value outputs = json::Value::Array();
    for (size_t ir = 0; ir < op->outputs.size(); ++ir) {
      for (size_t rel = 0; rel < op->outputs[ir].size(); ++rel) {
        json::Value o = json::Value::Object();
        o.Set("name", json::Value::String(op->OutputInstanceName(ir, rel)));
        o.Set("desc", DescJson(op->outputs[ir][rel]));
        outputs.Append(std::move(o));
      }
    }
    node.Set("outputs", std::move(outputs));
    json::Value attrs = json::Value::Object();
    for (const auto &attr : op->attrs) attrs.Set(attr.first, json::Value::String(ge::AttrValueTypeName(attr.second)));
    node.Set("attr_types", std::move(attrs));
    node_list.Append(std::move(node));
  }
  out->Set("nodes", std::move(node_list));
  json::Value inputs = json::Value::Array();
  for (const auto &in : graph.inputs) inputs.Append(json::Value::String(in->name));
  out->Set("inputs", std::move(inputs));
  json::Value outputs = json::Value::Array();
  for (const auto &o : graph.outputs) {
    json::Value ref = json::Value::Object();
    ref.Set("node", json::Value::String(o.op->name));
    ref.Set("index", json::Value::Int(o.index));
    outputs.Append(std::move(ref));
  }
  out->Set("outputs", std::move(outputs));
  return "";
}
}  // namespace ge_twin

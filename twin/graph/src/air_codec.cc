// GraphImpl <-> AIR protobuf (schema and writer/reader rules: twin/graph/proto/air.proto). The
// message classes come from protoc-gen-twin_cpp (tools/bazel/twin_proto), not libprotobuf.
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "air_values.h"
#include "escape.h"
#include "graph_impl.h"
#include "twin/graph/proto/air.pb.h"

namespace ge {
namespace {
constexpr char kAirMagic[] = "ge.twin.air";
constexpr uint32_t kAirFormatVersion = 1;
constexpr uint32_t kAirEndMarker = 0x52494121u;

namespace air = ::ge::twin::air;

// Builds the IR and instance structure of one node; edges are wired by the caller.
std::string DecodeNodeShape(const air::Node &in, const std::string &where, OperatorImpl *op) {
  op->name = in.name();
  op->type = in.type();
  for (const auto &ir : in.ir_inputs()) {
    if (ir.kind() < air::INPUT_REQUIRED || ir.kind() > air::INPUT_DYNAMIC) {
      return where + ": IR input '" + ir.name() + "' has an unknown kind " + std::to_string(ir.kind());
    }
    op->ir_inputs.push_back(IrInput{ir.name(), static_cast<IrInputKind>(ir.kind()), ir.type()});
    op->inputs.emplace_back();
  }
  for (const auto &ir : in.ir_outputs()) {
    if (ir.kind() < air::OUTPUT_REQUIRED || ir.kind() > air::OUTPUT_DYNAMIC) {
      return where + ": IR output '" + ir.name() + "' has an unknown kind " + std::to_string(ir.kind());
    }
    op->ir_outputs.push_back(IrOutput{ir.name(), static_cast<IrOutputKind>(ir.kind()), ir.type()});
    op->outputs.emplace_back();
  }
  uint32_t last_ir = 0;
  for (const auto &input : in.inputs()) {
    if (input.ir_index() >= op->ir_inputs.size() || input.ir_index() < last_ir) {
      return where + ": input '" + input.name() + "' has ir_index " + std::to_string(input.ir_index()) +
             " (out of range or not in IR order)";
    }
    last_ir = input.ir_index();
    auto &slots = op->inputs[input.ir_index()];
    slots.emplace_back();
    std::string expected = op->InputInstanceName(input.ir_index(), slots.size() - 1);
    if (input.name() != expected) {
      return std::string(where)
          .append(": input instance named '")
          .append(input.name())
          .append("' where '")
          .append(expected)
          .append("' was expected");
    }
    std::string err = DecodeDesc(input.desc(), where + " input '" + input.name() + "'", &slots.back().desc);
    if (!err.empty()) return err;
  }
  last_ir = 0;
  for (const auto &output : in.outputs()) {
    if (output.ir_index() >= op->ir_outputs.size() || output.ir_index() < last_ir) {
      return where + ": output '" + output.name() + "' has ir_index " + std::to_string(output.ir_index()) +
             " (out of range or not in IR order)";
    }
    last_ir = output.ir_index();
    auto &slots = op->outputs[output.ir_index()];
    slots.emplace_back();
    std::string expected = op->OutputInstanceName(output.ir_index(), slots.size() - 1);
    if (output.name() != expected) {
      return std::string(where)
          .append(": output instance named '")
          .append(output.name())
          .append("' where '")
          .append(expected)
          .append("' was expected");
    }
    std::string err = DecodeDesc(output.desc(), where + " output '" + output.name() + "'", &slots.back());
    if (!err.empty()) return err;
  }
  for (size_t i = 0; i < op->ir_inputs.size(); ++i) {
    if (op->ir_inputs[i].kind != IrInputKind::kDynamic && op->inputs[i].size() != 1) {
      return where + ": IR input '" + op->ir_inputs[i].name + "' needs exactly one instance, has " +
             std::to_string(op->inputs[i].size());
    }
  }
  for (size_t i = 0; i < op->ir_outputs.size(); ++i) {
    if (op->ir_outputs[i].kind != IrOutputKind::kDynamic && op->outputs[i].size() != 1) {
      return where + ": IR output '" + op->ir_outputs[i].name + "' needs exactly one instance, has " +
             std::to_string(op->outputs[i].size());
    }
  }
  for (const auto &attr : in.attrs()) {
    AttrValue value;
    std::string err = DecodeAttr(attr.value(), where + " attr '" + attr.name() + "'", &value);
    if (!err.empty()) return err;
    if (!op->attrs.emplace(attr.name(), value).second) {
      return where + ": attribute '" + attr.name() + "' appears twice";
    }
  }
  return "";
}
}  // namespace

std::string EncodeAir(const GraphImpl &graph, std::string *bytes) {
  std::vector<std::shared_ptr<OperatorImpl>> nodes;
  std::string err = CollectNodes(graph, &nodes);
  if (!err.empty()) return err;
  if (nodes.empty())
    return "graph '" + ge_twin::EscapeControl(graph.name) + "' has no operators (set inputs/outputs first)";

  air::Model model;
  model.set_magic(kAirMagic);
  model.set_format_version(kAirFormatVersion);
  model.set_producer("ge_twin graph (C++)");
  model.set_end_marker(kAirEndMarker);
  air::Graph *g = model.mutable_graph();
  g->set_name(graph.name);
  for (const auto &op : nodes) {
    air::Node *node = g->add_nodes();
    node->set_name(op->name);
    node->set_type(op->type);
    for (const auto &ir : op->ir_inputs) {
      auto *def = node->add_ir_inputs();
      def->set_name(ir.name);
      def->set_kind(static_cast<air::InputKind>(ir.kind));
      def->set_type(ir.type);
    }
    for (const auto &ir : op->ir_outputs) {
      auto *def = node->add_ir_outputs();
      def->set_name(ir.name);
      def->set_kind(static_cast<air::OutputKind>(ir.kind));
      def->set_type(ir.type);
    }
    for (size_t ir = 0; ir < op->inputs.size(); ++ir) {
      for (size_t rel = 0; rel < op->inputs[ir].size(); ++rel) {
        const InputSlot &slot = op->inputs[ir][rel];
        auto *input = node->add_inputs();
        input->set_name(op->InputInstanceName(ir, rel));
        input->set_ir_index(static_cast<uint32_t>(ir));
        if (slot.src != nullptr) {
          input->set_src_node(slot.src->name);
          input->set_src_index(slot.src_index);
        }
        EncodeDesc(slot.desc, input->mutable_desc());
      }
    }
    for (size_t ir = 0; ir < op->outputs.size(); ++ir) {
      for (size_t rel = 0; rel < op->outputs[ir].size(); ++rel) {
        auto *output = node->add_outputs();
        output->set_name(op->OutputInstanceName(ir, rel));
        output->set_ir_index(static_cast<uint32_t>(ir));
        EncodeDesc(op->outputs[ir][rel], output->mutable_desc());
      }
    }
    for (const auto &attr : op->attrs) {  // std::map: sorted by name
      if (attr.second.index() == 0) continue;
      auto *named = node->add_attrs();
      named->set_name(attr.first);
      EncodeAttr(attr.second, named->mutable_value());
    }
  }
  for (const auto &in : graph.inputs) g->add_input_nodes(in->name);
  for (const auto &out : graph.outputs) {
    auto *ref = g->add_outputs();
    ref->set_node(out.op->name);
    ref->set_index(out.index);
  }
  // Deterministic bytes (same graph, same file): the codec writes fields in number order and has
  // no maps, so its output is always canonical and equal to Python protobuf's.
  if (!model.SerializeToString(bytes)) {
    return "protobuf serialization of graph '" + graph.name + "' failed (" + std::to_string(model.ByteSizeLong()) +
           " bytes, over the 2 GiB limit)";
  }
  return "";
}

namespace {
std::string DecodeAirUnescaped(const std::string &bytes, const std::string &source, GraphImpl *graph) {
  const std::string file = "AIR file '" + source + "'";
  if (bytes.empty()) return file + " is empty";
  air::Model model;
  if (!model.ParseFromString(bytes)) return file + " is corrupt or truncated (protobuf parse failed)";
  if (model.magic() != kAirMagic) return file + " is not a ge.twin AIR file (magic '" + model.magic() + "')";
  if (model.format_version() == 0) return file + " has no format_version";
  if (model.format_version() > kAirFormatVersion) {
    return file + " has format_version " + std::to_string(model.format_version()) +
           ", newer than the newest supported (" + std::to_string(kAirFormatVersion) + ")";
  }
  if (model.end_marker() != kAirEndMarker) return file + " is truncated (end marker missing)";

  const air::Graph &g = model.graph();
  graph->name = g.name();
  std::unordered_map<std::string, std::shared_ptr<OperatorImpl>> by_name;
  for (int i = 0; i < g.nodes_size(); ++i) {
    const air::Node &in = g.nodes(i);
    const std::string where = file + " node '" + in.name() + "'";
    if (in.name().empty() || in.type().empty()) return file + ": node " + std::to_string(i) + " has no name or type";
    if (by_name.count(in.name()) != 0) return file + ": two nodes are named '" + in.name() + "'";
    auto op = std::make_shared<OperatorImpl>();
    std::string err = DecodeNodeShape(in, where, op.get());
    if (!err.empty()) return err;
    // Wire edges; producers must already be decoded (topological order).
    size_t flat = 0;
    for (size_t ir = 0; ir < op->inputs.size(); ++ir) {
      for (auto &slot : op->inputs[ir]) {
        const air::Input &edge = in.inputs(static_cast<int>(flat++));
        if (edge.src_node().empty()) continue;
        auto src = by_name.find(edge.src_node());
        if (src == by_name.end()) {
          return where + " input '" + edge.name() + "': producer '" + edge.src_node() +
                 "' is not an earlier node (unknown or not in topological order)";
        }
        if (edge.src_index() >= src->second->OutputCount()) {
          return where + " input '" + edge.name() + "': producer '" + edge.src_node() + "' has no output " +
                 std::to_string(edge.src_index());
        }
        slot.src = src->second;
        slot.src_index = edge.src_index();
      }
    }
    by_name[in.name()] = op;
  }
  for (const auto &name : g.input_nodes()) {
    auto it = by_name.find(name);
    if (it == by_name.end()) return std::string(file).append(": graph input '").append(name).append("' is not a node");
    graph->inputs.push_back(it->second);
  }
  for (const auto &ref : g.outputs()) {
    auto it = by_name.find(ref.node());
    if (it == by_name.end()) return file + ": graph output node '" + ref.node() + "' is not a node";
    if (ref.index() >= it->second->OutputCount()) {
      return file + ": graph output '" + ref.node() + "' index " + std::to_string(ref.index()) + " is out of range";
    }
    graph->outputs.push_back(GraphOutput{it->second, ref.index()});
  }
  // Nodes not reachable from inputs/outputs are kept as added ops, so nothing is lost. Edges
  // point to earlier nodes only (checked above), so keeping one such node makes no later node
  // reachable: one pass over the file order suffices (linear, however many there are).
  std::unordered_set<const OperatorImpl *> reachable;
  {
    std::vector<std::shared_ptr<OperatorImpl>> nodes;
    std::string err = CollectNodes(*graph, &nodes);
    if (!err.empty()) return file + ": " + err;
    for (const auto &n : nodes) reachable.insert(n.get());
  }
  for (const auto &node : g.nodes()) {
    const auto &op = by_name[node.name()];
    if (reachable.count(op.get()) == 0) graph->extra_ops.push_back(op);
  }
  return "";
}
}  // namespace

// Messages echo names and paths from the file: escaped once here, for every caller.
std::string DecodeAir(const std::string &bytes, const std::string &source, GraphImpl *graph) {
  return ge_twin::EscapeControl(DecodeAirUnescaped(bytes, source, graph));
}
}  // namespace ge

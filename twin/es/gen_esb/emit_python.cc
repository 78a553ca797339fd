// gen_esb's Python emitter: es_<op>.py, a function adding the op through GraphBuilder.
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "emit_common.h"

namespace gen_esb::emit {
namespace {
const std::map<std::string, std::string> kPyAnnotations = {{"VT_INT", "int"},
                                                           {"VT_FLOAT", "float"},
                                                           {"VT_BOOL", "bool"},
                                                           {"VT_STRING", "str"},
                                                           {"VT_DATA_TYPE", "DataType"},
                                                           {"VT_TENSOR", "object"},
                                                           {"VT_LIST_INT", "List[int]"},
                                                           {"VT_LIST_FLOAT", "List[float]"},
                                                           {"VT_LIST_BOOL", "List[bool]"},
                                                           {"VT_LIST_STRING", "List[str]"},
                                                           {"VT_LIST_DATA_TYPE", "List[DataType]"},
                                                           {"VT_LIST_LIST_INT", "List[List[int]]"}};
}  // namespace

// es_<op>.py: a function named <op> adding the node through GraphBuilder._add_op_node.
void GeneratePython(const OpProto &op, const Options &o, std::map<std::string, std::string> *files) {
  const ParamNames n = NamesFor(op, kPythonNames);
  const bool all_optional = AllOptional(op);
  // With several inputs (or only optional ones) plain numbers and lists become Const inputs.
  const bool tensor_like = op.inputs.size() > 1 || all_optional;
  const std::string holder = tensor_like ? "TensorLike" : "TensorHolder";
  const std::string py_bool = tensor_like ? "True" : "False";
  std::vector<Param> positional;
  if (op.inputs.empty()) positional.push_back({"owner_graph_builder: GraphBuilder", ""});
  for (const auto &i : op.inputs) {
    const std::string &p = n.in.at(i.name);
    if (i.kind == InputKind::kRequired) positional.push_back({std::string(p).append(": ").append(holder), ""});
    if (i.kind == InputKind::kOptional) {
      positional.push_back({std::string(p).append(": Optional[").append(holder).append("]"), "None"});
    }
    if (i.kind == InputKind::kDynamic) {
      positional.push_back({std::string(p).append(": List[").append(holder).append("]"), ""});
    }
  }
  if (all_optional) positional.push_back({"owner_builder: Optional[GraphBuilder]", "None"});
  for (const auto &out : op.outputs) {
    if (out.dynamic) positional.push_back({n.out.at(out.name) + "_num: int", ""});
  }
  std::vector<std::string> params = WithTrailingDefaults(positional, " = ");
  bool star = false;
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto &a : op.attrs) {
      if (a.required != (pass == 0)) continue;
      if (!star) params.emplace_back("*"), star = true;
      std::string text = n.attr.at(a.name) + ": " + kPyAnnotations.at(a.vt);
      if (!a.required) {
        std::string def;
        DefaultLiteral(a, false, &def);
        text += " = " + def;
      }
      params.push_back(text);
    }
  }
  const size_t outs = op.outputs.size();
  const bool single = outs == 1;
  std::string returns = outs == 0 ? "None"
                        : single  ? (op.outputs[0].dynamic ? "List[TensorHolder]" : "TensorHolder")
                                  : "_" + op.type + "Outputs";
  std::ostringstream py;
  py << "\"\"\"ES wrapper of operator " << op.type << " (module " << PyString(o.module_name) << "). " << kGeneratedNote
     << "\"\"\"\n\n"
     << "import collections\nfrom typing import List, Optional, Union\n\n"
     << "from ge.es import _wrapper_support as _support\nfrom ge.es.graph_builder import GraphBuilder\n"
     << "from ge.es.tensor_holder import TensorHolder\nfrom ge.graph.types import DataType\n\n"
     << "TensorLike = Union[TensorHolder, int, float, list]\n\n__all__ = [" << PyString(op.type) << "]\n\n";
  if (outs > 1) {
    std::vector<std::string> fields;
    fields.reserve(op.outputs.size());
    for (const auto &out : op.outputs) fields.push_back(PyString(n.out.at(out.name)));
    py << "_" << op.type << "Outputs = collections.namedtuple(" << PyString(op.type + "Outputs") << ", ["
       << Join(fields, ", ") << "])\n\n";
  }
  const std::string t = PyString(op.type);
  py << "\ndef " << op.type << "(" << Join(params, ", ") << ") -> " << returns << ":\n"
     << "    \"\"\"Add one " << op.type << " node to the graph of its inputs' GraphBuilder.\"\"\"\n";
  std::vector<std::string> values, names;
  for (const auto &i : op.inputs) {
    values.push_back(n.in.at(i.name));
    names.push_back(PyString(i.name));
  }
  std::string owner = op.inputs.empty() ? "owner_graph_builder" : (all_optional ? "owner_builder" : "None");
  py << "    builder = _support.resolve_builder(" << t << ", [" << Join(values, ", ") << "], " << owner << ", ["
     << Join(names, ", ") << "], " << py_bool << ")\n";
  std::vector<std::string> input_specs;
  for (const auto &i : op.inputs) {
    const std::string &p = n.in.at(i.name);
    py << "    " << p << " = _support." << (i.kind == InputKind::kDynamic ? "as_dynamic_input" : "as_input")
       << "(builder, " << p << ", " << t << ", " << PyString(i.name) << ", " << py_bool << ")\n";
    const char *kind = i.kind == InputKind::kRequired   ? "'required'"
                       : i.kind == InputKind::kOptional ? "'optional'"
                                                        : "'dynamic'";
    input_specs.push_back("(" + PyString(i.name) + ", " + kind + ", " + p + ")");
  }
  std::vector<std::string> attr_specs, output_specs;
  for (const auto &a : op.attrs) {
    attr_specs.push_back("(" + PyString(a.name) + ", _support.typed_attr(" + t + ", " + PyString(a.name) + ", " +
                         PyString(a.vt) + ", " + n.attr.at(a.name) + "))");
  }
  for (const auto &out : op.outputs) {
    output_specs.push_back("(" + PyString(out.name) + ", " +
                           (out.dynamic ? "'dynamic', " + n.out.at(out.name) + "_num" : "'required', 1") + ")");
  }
  py << "    groups = builder._add_op_node(" << t << ", inputs=[" << Join(input_specs, ", ") << "], attrs=["
     << Join(attr_specs, ", ") << "], outputs=[" << Join(output_specs, ", ") << "])\n";
  if (outs == 0) {
    py << "    return None\n";
  } else if (single) {
    py << (op.outputs[0].dynamic ? "    return groups[0]\n" : "    return groups[0][0]\n");
  } else {
    std::vector<std::string> items;
    for (size_t k = 0; k < outs; ++k) {
      items.push_back("groups[" + std::to_string(k) + "]" + (op.outputs[k].dynamic ? "" : "[0]"));
    }
    py << "    return _" << op.type << "Outputs(" << Join(items, ", ") << ")\n";
  }
  (*files)["es_" + op.type + ".py"] = py.str();
}
}  // namespace gen_esb::emit

// gen_esb's C emitter: es_<op>_c.h (the C ES function) and es_<op>.cpp (its definition).
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "emit_common.h"

namespace gen_esb::emit {
namespace {
// ---- C ----

struct CAttr {
  std::string params;  // C declaration(s)
  std::string call;    // the EsNodeAttr* statement in the .cpp
};

CAttr CAttrOf(const IrAttr &a, const std::string &p) {
  const std::string ir = CString(a.name);
  const std::string &t = a.type;
  if (t == "Int") return {"int64_t " + p, "EsNodeAttrInt(esb_node, " + ir + ", " + p + ");"};
  if (t == "Float") return {"float " + p, "EsNodeAttrFloat(esb_node, " + ir + ", " + p + ");"};
  if (t == "Bool") return {"bool " + p, "EsNodeAttrBool(esb_node, " + ir + ", " + p + ");"};
  if (t == "String" || t == "AscendString") {
    return {"const char *" + p, "EsNodeAttrString(esb_node, " + ir + ", " + p + ");"};
  }
  if (t == "Type") return {"EsCDataType " + p, "EsNodeAttrDataType(esb_node, " + ir + ", " + p + ");"};
  if (t == "Tensor") return {"const void *" + p, "EsNodeAttrTensor(esb_node, " + ir + ", " + p + ");"};
  if (t == "ListListInt") {
    return {"const int64_t *const *" + p + ", const int64_t *" + p + "_inner_num, int64_t " + p + "_num",
            "EsNodeAttrListListInt(esb_node, " + ir + ", " + p + ", " + p + "_inner_num, " + p + "_num);"};
  }
  static const std::map<std::string, std::pair<std::string, std::string>> kLists = {
      {"ListInt", {"const int64_t *", "EsNodeAttrListInt"}},
      {"ListFloat", {"const float *", "EsNodeAttrListFloat"}},
      {"ListBool", {"const bool *", "EsNodeAttrListBool"}},
      {"ListString", {"const char *const *", "EsNodeAttrListString"}},
      {"ListAscendString", {"const char *const *", "EsNodeAttrListString"}},
      {"ListType", {"const EsCDataType *", "EsNodeAttrListDataType"}}};
  const auto &l = kLists.at(t);
  return {l.first + p + ", int64_t " + p + "_num", l.second + "(esb_node, " + ir + ", " + p + ", " + p + "_num);"};
}
}  // namespace

// es_<op>_c.h and es_<op>.cpp
void GenerateC(const OpProto &op, const Options &o, std::map<std::string, std::string> *files) {
  const ParamNames n = NamesFor(op, kCppNames);
  const Returns ret = ReturnsOf(op);
  const std::string fn = "Es" + op.type;
  const std::string out_struct = fn + "Output";
  std::vector<std::string> params;
  std::string owner = "nullptr";
  if (op.inputs.empty()) {
    params.emplace_back("EsCGraphBuilder *owner_graph_builder");
    owner = "owner_graph_builder";
  }
  std::ostringstream body;
  for (const auto &i : op.inputs) {
    const std::string &p = n.in.at(i.name);
    const std::string ir = CString(i.name);
    if (i.kind == InputKind::kDynamic) {
      params.push_back(std::string("EsCTensorHolder *const *").append(p).append(", int64_t ").append(p).append("_num"));
      body << "  EsNodeDynamicInput(esb_node, " << ir << ", " << p << ", " << p << "_num);\n";
    } else {
      params.push_back("EsCTensorHolder *" + p);
      body << "  EsNode" << (i.kind == InputKind::kOptional ? "OptionalInput" : "Input") << "(esb_node, " << ir << ", "
           << p << ");\n";
    }
  }
  if (AllOptional(op)) {
    params.emplace_back("EsCGraphBuilder *owner_builder");
    owner = "owner_builder";
  }
  for (const auto &out : op.outputs) {
    if (out.dynamic) {
      params.push_back("int64_t " + n.out.at(out.name) + "_num");
      body << "  EsNodeDynamicOutput(esb_node, " << CString(out.name) << ", " << n.out.at(out.name) << "_num);\n";
    } else {
      body << "  EsNodeOutput(esb_node, " << CString(out.name) << ");\n";
    }
  }
  for (const auto &a : op.attrs) {
    CAttr c = CAttrOf(a, n.attr.at(a.name));
    params.push_back(c.params);
    body << "  " << c.call << "\n";
  }
  std::string ret_type =
      ret == Returns::kNone ? "uint32_t " : (ret == Returns::kSingle ? "EsCTensorHolder *" : out_struct + " ");
  std::string signature = ret_type + fn + "(" + (params.empty() ? "void" : Join(params, ", ")) + ")";

  const std::string hname = "es_" + op.type + "_c.h";
  std::ostringstream h;
  h << "/* C ES API of operator " << op.type << ". " << kGeneratedNote << " */\n"
    << "#ifndef " << Guard(o, hname) << "\n#define " << Guard(o, hname) << "\n\n"
    << "#include <stdbool.h>\n#include <stdint.h>\n\n#include \"esb_funcs.h\"\n\n"
    << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  if (ret == Returns::kStruct) {
    h << "typedef struct {\n";
    for (const auto &out : op.outputs) {
      const std::string &p = n.out.at(out.name);
      if (out.dynamic) {
        h << "  EsCTensorHolder **" << p << ";\n  int64_t " << p << "_num;\n";
      } else {
        h << "  EsCTensorHolder *" << p << ";\n";
      }
    }
    h << "} " << out_struct << ";\n\n";
  }
  h << "/* Adds one " << op.type << " node; returns "
    << (ret == Returns::kNone     ? "0 on success"
        : ret == Returns::kSingle ? "its output, NULL on failure"
                                  : "its outputs, all NULL on failure")
    << " (reason: EsGetLastErrorMessage()). */\n"
    << "ESB_FUNC_VISIBILITY " << signature << ";\n\n"
    << "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
  (*files)[hname] = h.str();

  std::ostringstream c;
  c << "// " << kGeneratedNote << "\n#include \"" << hname << "\"\n\nextern \"C\" {\n"
    << signature << " {\n"
    << "  EsCNodeBuilder *esb_node = EsNodeBegin(" << CString(op.type) << ", " << owner << ");\n"
    << body.str();
  if (ret == Returns::kNone) {
    c << "  uint32_t esb_result = EsNodeEnd(esb_node);\n";
  } else if (ret == Returns::kSingle) {
    c << "  EsCTensorHolder *esb_result = EsNodeEnd(esb_node) == 0 ? EsNodeGetOutput(esb_node, 0) : nullptr;\n";
  } else {
    c << "  " << out_struct << " esb_result = {};\n  if (EsNodeEnd(esb_node) == 0) {\n";
    for (size_t k = 0; k < op.outputs.size(); ++k) {
      const std::string &p = n.out.at(op.outputs[k].name);
      if (op.outputs[k].dynamic) {
        c << "    esb_result." << p << " = EsNodeGetDynamicOutputs(esb_node, " << k << ", &esb_result." << p
          << "_num);\n";
      } else {
        c << "    esb_result." << p << " = EsNodeGetOutput(esb_node, " << k << ");\n";
      }
    }
    c << "  }\n";
  }
  c << "  EsNodeRelease(esb_node);\n  return esb_result;\n}\n}  // extern \"C\"\n";
  (*files)["es_" + op.type + ".cpp"] = c.str();
}
}  // namespace gen_esb::emit

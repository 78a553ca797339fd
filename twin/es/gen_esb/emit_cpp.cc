// gen_esb's C++ emitter: es_<op>.h, the inline C++ ES function in ge::es.
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "emit_common.h"

namespace gen_esb::emit {
namespace {
// ---- C++ ----

struct CppAttr {
  std::string type;     // parameter type
  std::string prelude;  // statements converting the argument for the C call ("" if none)
  std::string args;     // the C call's argument(s)
};

CppAttr CppAttrOf(const IrAttr &a, const std::string &p) {
  const std::string &t = a.type;
  const std::string size = "static_cast<int64_t>(" + p + ".size())";
  if (t == "Int") return {"int64_t", "", p};
  if (t == "Float") return {"float", "", p};
  if (t == "Bool") return {"bool", "", p};
  if (t == "String" || t == "AscendString") return {"const char *", "", p};
  if (t == "Type") return {"ge::DataType", "", "static_cast<EsCDataType>(" + p + ")"};
  if (t == "Tensor") return {"const ge::Tensor *", "", "static_cast<const void *>(" + p + ")"};
  if (t == "ListInt") return {"const std::vector<int64_t> &", "", p + ".data(), " + size};
  if (t == "ListFloat") return {"const std::vector<float> &", "", p + ".data(), " + size};
  if (t == "ListString" || t == "ListAscendString")
    return {"const std::vector<const char *> &", "", p + ".data(), " + size};
  if (t == "ListBool") {  // std::vector<bool> has no contiguous bool storage
    return {"const std::vector<bool> &",
            "  std::unique_ptr<bool[]> esb_" + p + "(new bool[" + p +
                ".size() + 1]);\n"
                "  for (size_t esb_i = 0; esb_i < " +
                p + ".size(); ++esb_i) esb_" + p + "[esb_i] = " + p + "[esb_i];\n",
            "esb_" + p + ".get(), " + size};
  }
  if (t == "ListType") {
    return {"const std::vector<ge::DataType> &",
            "  std::vector<EsCDataType> esb_" + p + "(" + p + ".begin(), " + p + ".end());\n",
            "esb_" + p + ".data(), " + size};
  }
  // ListListInt
  return {"const std::vector<std::vector<int64_t>> &",
          "  std::vector<const int64_t *> esb_" + p + "_rows;\n  std::vector<int64_t> esb_" + p +
              "_sizes;\n"
              "  for (const auto &esb_row : " +
              p + ") {\n    esb_" + p +
              "_rows.push_back(esb_row.data());\n"
              "    esb_" +
              p + "_sizes.push_back(static_cast<int64_t>(esb_row.size()));\n  }\n",
          "esb_" + p + "_rows.data(), esb_" + p + "_sizes.data(), " + size};
}
}  // namespace

// es_<op>.h: the inline C++ function in ge::es.
void GenerateCpp(const OpProto &op, const Options &o, std::map<std::string, std::string> *files) {
  const ParamNames n = NamesFor(op, kCppNames);
  const Returns ret = ReturnsOf(op);
  std::vector<Param> params;
  std::vector<std::string> args;
  std::string prelude;
  if (op.inputs.empty()) {
    params.push_back({"EsGraphBuilder &owner_graph_builder", ""});
    args.emplace_back("owner_graph_builder.GetCGraphBuilder()");
  }
  for (const auto &i : op.inputs) {
    const std::string &p = n.in.at(i.name);
    if (i.kind == InputKind::kDynamic) {
      params.push_back({"const std::vector<EsTensorHolder> &" + p, ""});
      prelude.append("  auto esb_").append(p).append(" = TensorsToEsCTensorHolders(").append(p).append(");\n");
      args.push_back(
          std::string("esb_").append(p).append(".data(), static_cast<int64_t>(esb_").append(p).append(".size())"));
    } else {
      params.push_back({"const EsTensorHolder &" + p, i.kind == InputKind::kOptional ? "EsTensorHolder()" : ""});
      args.push_back(p + ".GetCTensorHolder()");
    }
  }
  if (AllOptional(op)) {
    params.push_back({"EsGraphBuilder *owner_builder", "nullptr"});
    args.emplace_back("owner_builder == nullptr ? nullptr : owner_builder->GetCGraphBuilder()");
  }
  for (const auto &out : op.outputs) {
    if (out.dynamic) {
      params.push_back({"int64_t " + n.out.at(out.name) + "_num", ""});
      args.push_back(n.out.at(out.name) + "_num");
    }
  }
  // Attrs: required ones first, then optional ones with their IR defaults (as the Python API);
  // the C call keeps IR order.
  std::map<std::string, std::string> attr_args;
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto &a : op.attrs) {
      if (a.required != (pass == 0)) continue;
      const std::string &p = n.attr.at(a.name);
      CppAttr c = CppAttrOf(a, p);
      std::string def;
      if (!a.required) DefaultLiteral(a, true, &def);  // checked by GenerateModule
      params.push_back({c.type + (c.type.back() == '*' || c.type.back() == '&' ? "" : " ") + p, def});
      prelude += c.prelude;
      attr_args[a.name] = c.args;
    }
  }
  for (const auto &a : op.attrs) args.push_back(attr_args.at(a.name));

  std::string ret_type = "graphStatus";
  if (ret == Returns::kSingle) {
    ret_type = "EsTensorHolder";
  } else if (ret == Returns::kStruct) {
    ret_type = op.outputs.size() == 1 ? "std::vector<EsTensorHolder>" : op.type + "Output";
  }
  const std::string hname = "es_" + op.type + ".h";
  std::ostringstream h;
  h << "// C++ ES API of operator " << op.type << ". " << kGeneratedNote << "\n"
    << "#ifndef " << Guard(o, hname) << "\n#define " << Guard(o, hname) << "\n\n"
    << "#include <cstdint>\n#include <limits>\n#include <memory>\n#include <vector>\n\n"
    << "#include \"es_" << op.type << "_c.h\"\n#include \"es_graph_builder.h\"\n#include \"es_tensor_holder.h\"\n\n"
    << "namespace ge {\nnamespace es {\n";
  if (ret == Returns::kStruct && op.outputs.size() > 1) {
    h << "struct " << op.type << "Output {\n";
    for (const auto &out : op.outputs) {
      h << "  " << (out.dynamic ? "std::vector<EsTensorHolder> " : "EsTensorHolder ") << n.out.at(out.name) << ";\n";
    }
    h << "};\n\n";
  }
  h << "inline " << ret_type << " " << op.type << "(" << Join(WithTrailingDefaults(params, " = "), ", ") << ") {\n"
    << prelude << "  auto esb_out = Es" << op.type << "(" << Join(args, ", ") << ");\n";
  if (ret == Returns::kNone || ret == Returns::kSingle) {
    h << "  return esb_out;\n";
  } else if (op.outputs.size() == 1) {
    const std::string &p = n.out.at(op.outputs[0].name);
    h << "  return EsCTensorHoldersToTensors(esb_out." << p << ", esb_out." << p << "_num);\n";
  } else {
    h << "  " << op.type << "Output esb_result;\n";
    for (const auto &out : op.outputs) {
      const std::string &p = n.out.at(out.name);
      if (out.dynamic) {
        h << "  esb_result." << p << " = EsCTensorHoldersToTensors(esb_out." << p << ", esb_out." << p << "_num);\n";
      } else {
        h << "  esb_result." << p << " = esb_out." << p << ";\n";
      }
    }
    h << "  return esb_result;\n";
  }
  h << "}\n}  // namespace es\n}  // namespace ge\n\n#endif\n";
  (*files)[hname] = h.str();
}
}  // namespace gen_esb::emit

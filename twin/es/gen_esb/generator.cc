#include "generator.h"

#include <cctype>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

#include "twin/graph/src/type_names.h"

namespace gen_esb {
namespace {
const std::set<std::string> kPythonKeywords = {
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield"};

const std::set<std::string> kCppKeywords = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case",
    "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const",
    "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await", "co_return",
    "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
    "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int",
    "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
    "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires", "restrict",
    "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
    "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid",
    "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while",
    "xor", "xor_eq", "_Bool"};

// Names the generated code uses next to the parameters: a parameter so named gets a prefix too.
std::set<std::string> With(std::set<std::string> words, const std::set<std::string> &more) {
  words.insert(more.begin(), more.end());
  return words;
}
const std::set<std::string> kCppNames =
    With(kCppKeywords, {"owner_builder", "owner_graph_builder", "ge", "es", "std"});
const std::set<std::string> kPythonNames =
    With(kPythonKeywords, {"builder", "groups", "owner_builder", "owner_graph_builder", "collections", "List",
                           "Optional", "Union", "GraphBuilder", "TensorHolder", "DataType", "TensorLike", "_support"});

// REG_OP attr type -> the twin's VT name, for the types ES code can carry.
const std::map<std::string, std::string> kAttrTypes = {
    {"Int", "VT_INT"}, {"Float", "VT_FLOAT"}, {"Bool", "VT_BOOL"}, {"String", "VT_STRING"},
    {"AscendString", "VT_STRING"}, {"Type", "VT_DATA_TYPE"}, {"Tensor", "VT_TENSOR"},
    {"ListInt", "VT_LIST_INT"}, {"ListFloat", "VT_LIST_FLOAT"}, {"ListBool", "VT_LIST_BOOL"},
    {"ListString", "VT_LIST_STRING"}, {"ListAscendString", "VT_LIST_STRING"},
    {"ListType", "VT_LIST_DATA_TYPE"}, {"ListListInt", "VT_LIST_LIST_INT"}};

bool IsIdentifier(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

std::string Upper(const std::string &s) {
  std::string out;
  for (char c : s) out.push_back(std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(c)) : '_');
  return out;
}

// Parameter names of one op in one language: keywords get in_/out_/attr_; an output or attr
// named like an input becomes ref_<name> / attr_<name> (CANN's generator rules).
struct ParamNames {
  std::map<std::string, std::string> in, out, attr;
};

ParamNames NamesFor(const OpProto &op, const std::set<std::string> &keywords) {
  ParamNames n;
  std::set<std::string> inputs;
  for (const auto &i : op.inputs) {
    n.in[i.name] = keywords.count(i.name) ? "in_" + i.name : i.name;
    inputs.insert(i.name);
  }
  for (const auto &o : op.outputs) {
    n.out[o.name] = inputs.count(o.name) ? "ref_" + o.name : (keywords.count(o.name) ? "out_" + o.name : o.name);
  }
  for (const auto &a : op.attrs) {
    n.attr[a.name] = (inputs.count(a.name) || keywords.count(a.name)) ? "attr_" + a.name : a.name;
  }
  return n;
}

// ---- literals ----

std::string CString(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\%03o", c);  // octal stops after 3 digits, unlike \x
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string PyString(const std::string &s) {
  std::string out = "'";
  for (unsigned char c : s) {
    if (c == '\'' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "'";
}

// The shortest decimal text that reads back as the same float, always with a '.' or exponent.
std::string FloatText(float f) {
  char buf[32];
  for (int precision = 1; precision <= 9; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, static_cast<double>(f));
    if (std::strtof(buf, nullptr) == f) break;
  }
  std::string t = buf;
  if (t.find_first_of(".eE") == std::string::npos) t += ".0";
  return t;
}

std::string Join(const std::vector<std::string> &items, const std::string &sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

// Literals of one attr element in C++ (cpp) or Python.
std::string IntLiteral(bool cpp, int64_t v) { return (cpp && v == INT64_MIN) ? "INT64_MIN" : std::to_string(v); }

std::string FloatLiteral(bool cpp, float f) {
  if (std::isfinite(f)) return FloatText(f) + (cpp ? "f" : "");
  if (std::isnan(f)) return cpp ? "std::numeric_limits<float>::quiet_NaN()" : "float('nan')";
  const std::string sign = f < 0 ? "-" : "";
  return cpp ? sign + "std::numeric_limits<float>::infinity()" : "float('" + sign + "inf')";
}

std::string BoolLiteral(bool cpp, bool b) { return cpp ? (b ? "true" : "false") : (b ? "True" : "False"); }

std::string StringLiteral(bool cpp, const std::string &s) { return cpp ? CString(s) : PyString(s); }

bool TypeLiteral(bool cpp, int32_t dt, std::string *out) {
  const char *name = ge_twin::DataTypeName(static_cast<ge::DataType>(dt));
  if (name[0] == '\0') return false;
  *out = (cpp ? "ge::" : "DataType.") + std::string(name);
  return true;
}

template <typename Values, typename Literal>
std::string ListLiteral(bool cpp, const Values &values, Literal literal) {
  std::vector<std::string> items;
  for (const auto &v : values) items.push_back(literal(cpp, v));
  return cpp ? "{" + Join(items, ", ") + "}" : "[" + Join(items, ", ") + "]";
}

// The default of an optional attr as a literal, in C++ (cpp=true) or Python; false when the
// listed default is not of the attr's type.
bool DefaultLiteral(const IrAttr &a, bool cpp, std::string *out) {
  using Case = ge::twin::air::AttrValue;
  const Case &v = a.default_value;
  const std::string &t = a.type;
  if (t == "Tensor") {
    *out = cpp ? "nullptr" : "None";  // ES code passes no tensor: the IR default stays
    return true;
  }
  if (t == "Int" && v.value_case() == Case::kI) {
    *out = IntLiteral(cpp, v.i());
  } else if (t == "Float" && v.value_case() == Case::kF) {
    *out = FloatLiteral(cpp, v.f());
  } else if (t == "Bool" && v.value_case() == Case::kB) {
    *out = BoolLiteral(cpp, v.b());
  } else if ((t == "String" || t == "AscendString") && v.value_case() == Case::kS) {
    *out = StringLiteral(cpp, v.s());
  } else if (t == "Type" && v.value_case() == Case::kDt) {
    return TypeLiteral(cpp, v.dt(), out);
  } else if (t == "ListInt" && v.value_case() == Case::kListI) {
    *out = ListLiteral(cpp, v.list_i().values(), IntLiteral);
  } else if (t == "ListFloat" && v.value_case() == Case::kListF) {
    *out = ListLiteral(cpp, v.list_f().values(), FloatLiteral);
  } else if (t == "ListBool" && v.value_case() == Case::kListB) {
    *out = ListLiteral(cpp, v.list_b().values(), BoolLiteral);
  } else if ((t == "ListString" || t == "ListAscendString") && v.value_case() == Case::kListS) {
    *out = ListLiteral(cpp, v.list_s().values(), StringLiteral);
  } else if (t == "ListType" && v.value_case() == Case::kListDt) {
    std::vector<std::string> items;
    for (int32_t dt : v.list_dt().values()) {
      if (!TypeLiteral(cpp, dt, out)) return false;
      items.push_back(*out);
    }
    *out = cpp ? "{" + Join(items, ", ") + "}" : "[" + Join(items, ", ") + "]";
  } else if (t == "ListListInt" && v.value_case() == Case::kListListI) {
    std::vector<std::string> rows;
    for (const auto &row : v.list_list_i().values()) rows.push_back(ListLiteral(cpp, row.values(), IntLiteral));
    *out = cpp ? "{" + Join(rows, ", ") + "}" : "[" + Join(rows, ", ") + "]";
  } else {
    return false;
  }
  return true;
}

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
  if (t == "ListString" || t == "ListAscendString") return {"const std::vector<const char *> &", "", p + ".data(), " + size};
  if (t == "ListBool") {  // std::vector<bool> has no contiguous bool storage
    return {"const std::vector<bool> &",
            "  std::unique_ptr<bool[]> esb_" + p + "(new bool[" + p + ".size() + 1]);\n"
            "  for (size_t esb_i = 0; esb_i < " + p + ".size(); ++esb_i) esb_" + p + "[esb_i] = " + p + "[esb_i];\n",
            "esb_" + p + ".get(), " + size};
  }
  if (t == "ListType") {
    return {"const std::vector<ge::DataType> &",
            "  std::vector<EsCDataType> esb_" + p + "(" + p + ".begin(), " + p + ".end());\n",
            "esb_" + p + ".data(), " + size};
  }
  // ListListInt
  return {"const std::vector<std::vector<int64_t>> &",
          "  std::vector<const int64_t *> esb_" + p + "_rows;\n  std::vector<int64_t> esb_" + p + "_sizes;\n"
          "  for (const auto &esb_row : " + p + ") {\n    esb_" + p + "_rows.push_back(esb_row.data());\n"
          "    esb_" + p + "_sizes.push_back(static_cast<int64_t>(esb_row.size()));\n  }\n",
          "esb_" + p + "_rows.data(), esb_" + p + "_sizes.data(), " + size};
}

enum class Returns { kNone, kSingle, kStruct };

Returns ReturnsOf(const OpProto &op) {
  if (op.outputs.empty()) return Returns::kNone;
  if (op.outputs.size() == 1 && !op.outputs[0].dynamic) return Returns::kSingle;
  return Returns::kStruct;
}

bool AllOptional(const OpProto &op) {
  if (op.inputs.empty()) return false;
  for (const auto &i : op.inputs) {
    if (i.kind != InputKind::kOptional) return false;
  }
  return true;
}

std::string Guard(const Options &o, const std::string &file) {
  return (o.h_guard_prefix.empty() ? "" : Upper(o.h_guard_prefix) + "_") + Upper(file) + "_";
}

const char *kGeneratedNote = "Generated by gen_esb. Do not edit.";

// es_<op>_c.h and es_<op>.cpp
void GenerateC(const OpProto &op, const Options &o, std::map<std::string, std::string> *files) {
  const ParamNames n = NamesFor(op, kCppNames);
  const Returns ret = ReturnsOf(op);
  const std::string fn = "Es" + op.type;
  const std::string out_struct = fn + "Output";
  std::vector<std::string> params;
  std::string owner = "nullptr";
  if (op.inputs.empty()) {
    params.push_back("EsCGraphBuilder *owner_graph_builder");
    owner = "owner_graph_builder";
  }
  std::ostringstream body;
  for (const auto &i : op.inputs) {
    const std::string &p = n.in.at(i.name);
    const std::string ir = CString(i.name);
    if (i.kind == InputKind::kDynamic) {
      params.push_back("EsCTensorHolder *const *" + p + ", int64_t " + p + "_num");
      body << "  EsNodeDynamicInput(esb_node, " << ir << ", " << p << ", " << p << "_num);\n";
    } else {
      params.push_back("EsCTensorHolder *" + p);
      body << "  EsNode" << (i.kind == InputKind::kOptional ? "OptionalInput" : "Input") << "(esb_node, " << ir
           << ", " << p << ");\n";
    }
  }
  if (AllOptional(op)) {
    params.push_back("EsCGraphBuilder *owner_builder");
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
  std::string ret_type = ret == Returns::kNone ? "uint32_t " : (ret == Returns::kSingle ? "EsCTensorHolder *" : out_struct + " ");
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
    << (ret == Returns::kNone ? "0 on success"
                              : ret == Returns::kSingle ? "its output, NULL on failure" : "its outputs, all NULL on failure")
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

// A parameter list where a default may only be given if every later parameter has one.
struct Param {
  std::string decl;
  std::string default_value;  // "" = none
};

std::vector<std::string> WithTrailingDefaults(const std::vector<Param> &params, const std::string &assign) {
  std::vector<std::string> out(params.size());
  bool allowed = true;
  for (size_t k = params.size(); k-- > 0;) {
    allowed = allowed && !params[k].default_value.empty();
    out[k] = params[k].decl + (allowed ? assign + params[k].default_value : "");
  }
  return out;
}

// es_<op>.h: the inline C++ function in ge::es.
void GenerateCpp(const OpProto &op, const Options &o, std::map<std::string, std::string> *files) {
  const ParamNames n = NamesFor(op, kCppNames);
  const Returns ret = ReturnsOf(op);
  std::vector<Param> params;
  std::vector<std::string> args;
  std::string prelude;
  if (op.inputs.empty()) {
    params.push_back({"EsGraphBuilder &owner_graph_builder", ""});
    args.push_back("owner_graph_builder.GetCGraphBuilder()");
  }
  for (const auto &i : op.inputs) {
    const std::string &p = n.in.at(i.name);
    if (i.kind == InputKind::kDynamic) {
      params.push_back({"const std::vector<EsTensorHolder> &" + p, ""});
      prelude += "  auto esb_" + p + " = TensorsToEsCTensorHolders(" + p + ");\n";
      args.push_back("esb_" + p + ".data(), static_cast<int64_t>(esb_" + p + ".size())");
    } else {
      params.push_back({"const EsTensorHolder &" + p, i.kind == InputKind::kOptional ? "EsTensorHolder()" : ""});
      args.push_back(p + ".GetCTensorHolder()");
    }
  }
  if (AllOptional(op)) {
    params.push_back({"EsGraphBuilder *owner_builder", "nullptr"});
    args.push_back("owner_builder == nullptr ? nullptr : owner_builder->GetCGraphBuilder()");
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

const std::map<std::string, std::string> kPyAnnotations = {
    {"VT_INT", "int"}, {"VT_FLOAT", "float"}, {"VT_BOOL", "bool"}, {"VT_STRING", "str"},
    {"VT_DATA_TYPE", "DataType"}, {"VT_TENSOR", "object"}, {"VT_LIST_INT", "List[int]"},
    {"VT_LIST_FLOAT", "List[float]"}, {"VT_LIST_BOOL", "List[bool]"}, {"VT_LIST_STRING", "List[str]"},
    {"VT_LIST_DATA_TYPE", "List[DataType]"}, {"VT_LIST_LIST_INT", "List[List[int]]"}};

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
    if (i.kind == InputKind::kRequired) positional.push_back({p + ": " + holder, ""});
    if (i.kind == InputKind::kOptional) positional.push_back({p + ": Optional[" + holder + "]", "None"});
    if (i.kind == InputKind::kDynamic) positional.push_back({p + ": List[" + holder + "]", ""});
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
      if (!star) params.push_back("*"), star = true;
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
  py << "\"\"\"ES wrapper of operator " << op.type << " (module " << PyString(o.module_name) << "). "
     << kGeneratedNote << "\"\"\"\n\n"
     << "import collections\nfrom typing import List, Optional, Union\n\n"
     << "from ge.es import _wrapper_support as _support\nfrom ge.es.graph_builder import GraphBuilder\n"
     << "from ge.es.tensor_holder import TensorHolder\nfrom ge.graph.types import DataType\n\n"
     << "TensorLike = Union[TensorHolder, int, float, list]\n\n__all__ = [" << PyString(op.type) << "]\n\n";
  if (outs > 1) {
    std::vector<std::string> fields;
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
    const char *kind = i.kind == InputKind::kRequired ? "'required'" : i.kind == InputKind::kOptional ? "'optional'" : "'dynamic'";
    input_specs.push_back("(" + PyString(i.name) + ", " + kind + ", " + p + ")");
  }
  std::vector<std::string> attr_specs, output_specs;
  for (const auto &a : op.attrs) {
    attr_specs.push_back("(" + PyString(a.name) + ", _support.typed_attr(" + t + ", " + PyString(a.name) + ", " +
                         PyString(a.vt) + ", " + n.attr.at(a.name) + "))");
  }
  for (const auto &out : op.outputs) {
    output_specs.push_back("(" + PyString(out.name) + ", " + (out.dynamic ? "'dynamic', " + n.out.at(out.name) + "_num" : "'required', 1") + ")");
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
// Every parameter name of the C and the Python function, to refuse IRs whose derived names
// (<name>_num, ...) collide with another parameter.
bool CheckParameterNames(const OpProto &op, std::string *error) {
  for (int lang = 0; lang < 2; ++lang) {
    const ParamNames n = NamesFor(op, lang == 0 ? kCppNames : kPythonNames);
    std::vector<std::string> names;
    if (op.inputs.empty()) names.push_back("owner_graph_builder");
    for (const auto &i : op.inputs) {
      names.push_back(n.in.at(i.name));
      if (i.kind == InputKind::kDynamic && lang == 0) names.push_back(n.in.at(i.name) + "_num");
    }
    if (AllOptional(op)) names.push_back("owner_builder");
    for (const auto &o : op.outputs) {
      if (o.dynamic) names.push_back(n.out.at(o.name) + "_num");
    }
    for (const auto &a : op.attrs) {
      names.push_back(n.attr.at(a.name));
      if (lang == 0 && a.type.compare(0, 4, "List") == 0) names.push_back(n.attr.at(a.name) + "_num");
      if (lang == 0 && a.type == "ListListInt") names.push_back(n.attr.at(a.name) + "_inner_num");
    }
    std::set<std::string> seen;
    for (const auto &name : names) {
      if (!seen.insert(name).second) {
        *error = "operator " + op.type + ": the generated " + (lang == 0 ? "C" : "Python") + " parameter '" + name +
                 "' would appear twice (rename the input, output or attr it derives from)";
        return false;
      }
    }
  }
  return true;
}
}  // namespace

bool ReadOpProto(const ge::twin::capi::OpProto &entry, OpProto *op, std::string *error) {
  op->type = entry.op_type();
  if (!IsIdentifier(op->type)) {
    *error = "operator type '" + op->type + "' is not a valid identifier";
    return false;
  }
  std::set<std::string> seen_in, seen_out, seen_attr;
  for (const auto &i : entry.inputs()) {
    IrInput in{i.name(), i.kind() == ge::twin::capi::IR_OPTIONAL ? InputKind::kOptional
                         : i.kind() == ge::twin::capi::IR_DYNAMIC ? InputKind::kDynamic
                                                                  : InputKind::kRequired};
    if (!IsIdentifier(in.name) || !seen_in.insert(in.name).second || !ge::twin::capi::IrKind_IsValid(i.kind())) {
      *error = "operator " + op->type + ": input '" + in.name + "' (kind " + std::to_string(i.kind()) +
               ") is invalid or repeated";
      return false;
    }
    op->inputs.push_back(in);
  }
  for (const auto &o : entry.outputs()) {
    IrOutput out{o.name(), o.kind() == ge::twin::capi::IR_DYNAMIC};
    if (!IsIdentifier(out.name) || !seen_out.insert(out.name).second || o.kind() == ge::twin::capi::IR_OPTIONAL ||
        !ge::twin::capi::IrKind_IsValid(o.kind())) {
      *error = "operator " + op->type + ": output '" + out.name + "' (kind " + std::to_string(o.kind()) +
               ") is invalid or repeated";
      return false;
    }
    op->outputs.push_back(out);
  }
  for (const auto &a : entry.attrs()) {
    IrAttr attr;
    attr.name = a.name();
    attr.type = a.type();
    attr.required = a.required();
    attr.default_value = a.default_value();
    if (!IsIdentifier(attr.name) || !seen_attr.insert(attr.name).second) {
      *error = "operator " + op->type + ": attr '" + attr.name + "' is invalid or repeated";
      return false;
    }
    auto known = kAttrTypes.find(attr.type);
    if (known == kAttrTypes.end()) {
      *error = "operator " + op->type + ": attr '" + attr.name + "' has type '" + attr.type +
               "', which ES code generation does not support";
      return false;
    }
    attr.vt = known->second;
    std::string literal;
    if (!attr.required && (!DefaultLiteral(attr, true, &literal) || !DefaultLiteral(attr, false, &literal))) {
      *error = "operator " + op->type + ": the default of attr '" + attr.name + "' (" + attr.type +
               ") cannot be written as a literal";
      return false;
    }
    op->attrs.push_back(std::move(attr));
  }
  return CheckParameterNames(*op, error);
}

bool GenerateModule(const std::vector<OpProto> &ops, const Options &options,
                    std::map<std::string, std::string> *files, std::string *error) {
  if (!IsIdentifier(options.module_name)) {
    *error = "--module_name '" + options.module_name + "' is not a valid identifier";
    return false;
  }
  if (!options.h_guard_prefix.empty() && !IsIdentifier(options.h_guard_prefix)) {
    *error = "--h_guard_prefix '" + options.h_guard_prefix + "' is not a valid identifier";
    return false;
  }
  const std::string m = options.module_name;
  std::ostringstream c_all, cpp_all, py_all;
  const std::string c_name = "es_" + m + "_ops_c.h", cpp_name = "es_" + m + "_ops.h";
  c_all << "/* C ES API of module " << m << ". " << kGeneratedNote << " */\n#ifndef " << Guard(options, c_name)
        << "\n#define " << Guard(options, c_name) << "\n\n";
  cpp_all << "// C++ ES API of module " << m << ". " << kGeneratedNote << "\n#ifndef " << Guard(options, cpp_name)
          << "\n#define " << Guard(options, cpp_name) << "\n\n";
  py_all << "\"\"\"ES wrappers of module " << PyString(m) << ". " << kGeneratedNote << "\"\"\"\n\n"
         << "# Inside a package (CANN's wheel: es_" << m << "/) the per-op modules are siblings; with the\n"
         << "# generated directory itself on sys.path they are top-level modules.\n";
  std::vector<std::string> all;
  std::string relative, absolute;
  for (const auto &op : ops) {
    GenerateC(op, options, files);
    GenerateCpp(op, options, files);
    GeneratePython(op, options, files);
    c_all << "#include \"es_" << op.type << "_c.h\"\n";
    cpp_all << "#include \"es_" << op.type << ".h\"\n";
    relative += "    from .es_" + op.type + " import " + op.type + "\n";
    absolute += "    from es_" + op.type + " import " + op.type + "\n";
    all.push_back(PyString(op.type));
  }
  c_all << "\n#endif\n";
  cpp_all << "\n#endif\n";
  if (ops.empty()) {
    py_all << "\n__all__ = []\n";
  } else {
    py_all << "if __package__:\n" << relative << "else:\n" << absolute << "\n__all__ = [" << Join(all, ", ") << "]\n";
  }
  (*files)[c_name] = c_all.str();
  (*files)[cpp_name] = cpp_all.str();
  (*files)["es_" + m + "_ops.py"] = py_all.str();
  return true;
}
}  // namespace gen_esb

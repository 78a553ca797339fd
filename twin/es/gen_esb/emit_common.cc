#include "emit_common.h"

#include <cctype>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "twin/graph/src/type_names.h"

namespace gen_esb::emit {
const std::set<std::string> kPythonKeywords = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

const std::set<std::string> kCppKeywords = {"alignas",
                                            "alignof",
                                            "and",
                                            "and_eq",
                                            "asm",
                                            "auto",
                                            "bitand",
                                            "bitor",
                                            "bool",
                                            "break",
                                            "case",
                                            "catch",
                                            "char",
                                            "char8_t",
                                            "char16_t",
                                            "char32_t",
                                            "class",
                                            "compl",
                                            "concept",
                                            "const",
                                            "consteval",
                                            "constexpr",
                                            "constinit",
                                            "const_cast",
                                            "continue",
                                            "co_await",
                                            "co_return",
                                            "co_yield",
                                            "decltype",
                                            "default",
                                            "delete",
                                            "do",
                                            "double",
                                            "dynamic_cast",
                                            "else",
                                            "enum",
                                            "explicit",
                                            "export",
                                            "extern",
                                            "false",
                                            "float",
                                            "for",
                                            "friend",
                                            "goto",
                                            "if",
                                            "inline",
                                            "int",
                                            "long",
                                            "mutable",
                                            "namespace",
                                            "new",
                                            "noexcept",
                                            "not",
                                            "not_eq",
                                            "nullptr",
                                            "operator",
                                            "or",
                                            "or_eq",
                                            "private",
                                            "protected",
                                            "public",
                                            "register",
                                            "reinterpret_cast",
                                            "requires",
                                            "restrict",
                                            "return",
                                            "short",
                                            "signed",
                                            "sizeof",
                                            "static",
                                            "static_assert",
                                            "static_cast",
                                            "struct",
                                            "switch",
                                            "template",
                                            "this",
                                            "thread_local",
                                            "throw",
                                            "true",
                                            "try",
                                            "typedef",
                                            "typeid",
                                            "typename",
                                            "union",
                                            "unsigned",
                                            "using",
                                            "virtual",
                                            "void",
                                            "volatile",
                                            "wchar_t",
                                            "while",
                                            "xor",
                                            "xor_eq",
                                            "_Bool"};

// Names the generated code uses next to the parameters: a parameter so named gets a prefix too.
std::set<std::string> With(std::set<std::string> words, const std::set<std::string> &more) {
  words.insert(more.begin(), more.end());
  return words;
}
const std::set<std::string> kCppNames = With(kCppKeywords, {"owner_builder", "owner_graph_builder", "ge", "es", "std"});
const std::set<std::string> kPythonNames =
    With(kPythonKeywords, {"builder", "groups", "owner_builder", "owner_graph_builder", "collections", "List",
                           "Optional", "Union", "GraphBuilder", "TensorHolder", "DataType", "TensorLike", "_support"});

const std::map<std::string, std::string> kAttrTypes = {{"Int", "VT_INT"},
                                                       {"Float", "VT_FLOAT"},
                                                       {"Bool", "VT_BOOL"},
                                                       {"String", "VT_STRING"},
                                                       {"AscendString", "VT_STRING"},
                                                       {"Type", "VT_DATA_TYPE"},
                                                       {"Tensor", "VT_TENSOR"},
                                                       {"ListInt", "VT_LIST_INT"},
                                                       {"ListFloat", "VT_LIST_FLOAT"},
                                                       {"ListBool", "VT_LIST_BOOL"},
                                                       {"ListString", "VT_LIST_STRING"},
                                                       {"ListAscendString", "VT_LIST_STRING"},
                                                       {"ListType", "VT_LIST_DATA_TYPE"},
                                                       {"ListListInt", "VT_LIST_LIST_INT"}};

bool IsIdentifier(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

std::string Upper(const std::string &s) {
  std::string out;
  for (char c : s)
    out.push_back(std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(c)) : '_');
  return out;
}

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

const char *const kGeneratedNote = "Generated by gen_esb. Do not edit.";

std::vector<std::string> WithTrailingDefaults(const std::vector<Param> &params, const std::string &assign) {
  std::vector<std::string> out(params.size());
  bool allowed = true;
  for (size_t k = params.size(); k-- > 0;) {
    allowed = allowed && !params[k].default_value.empty();
    out[k] = params[k].decl + (allowed ? assign + params[k].default_value : "");
  }
  return out;
}

}  // namespace gen_esb::emit

#include "generator.h"

#include <cctype>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

#include "twin/graph/src/type_names.h"

#include "emit_common.h"

namespace gen_esb {
using namespace emit;  // NOLINT: the module assembly speaks the emitters' vocabulary
namespace {
// Every parameter name of the C and the Python function, to refuse IRs whose derived names
// (<name>_num, ...) collide with another parameter.
bool CheckParameterNames(const OpProto &op, std::string *error) {
  for (int lang = 0; lang < 2; ++lang) {
    const ParamNames n = NamesFor(op, lang == 0 ? kCppNames : kPythonNames);
    std::vector<std::string> names;
    if (op.inputs.empty()) names.emplace_back("owner_graph_builder");
    for (const auto &i : op.inputs) {
      names.push_back(n.in.at(i.name));
      if (i.kind == InputKind::kDynamic && lang == 0) names.push_back(n.in.at(i.name) + "_num");
    }
    if (AllOptional(op)) names.emplace_back("owner_builder");
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
    IrInput in{i.name(), i.kind() == ge::twin::capi::IR_OPTIONAL  ? InputKind::kOptional
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

bool GenerateModule(const std::vector<OpProto> &ops, const Options &options, std::map<std::string, std::string> *files,
                    std::string *error) {
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

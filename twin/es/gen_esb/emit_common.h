// What gen_esb's emitters (emit_c.cc, emit_cpp.cc, emit_python.cc) and the module assembly
// (generator.cc) share: the reserved names of each language, parameter naming, literals and
// attr defaults, and the shape of an op's return value.
#ifndef TWIN_ES_GEN_ESB_EMIT_COMMON_H_
#define TWIN_ES_GEN_ESB_EMIT_COMMON_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "generator.h"

namespace gen_esb::emit {

// Keywords plus the names the generated code uses next to the parameters.
extern const std::set<std::string> kCppNames;
extern const std::set<std::string> kPythonNames;
// REG_OP attr type -> the twin's VT name, for the types ES code can carry.
extern const std::map<std::string, std::string> kAttrTypes;
extern const char *const kGeneratedNote;

bool IsIdentifier(const std::string &s);

// Parameter names of one op in one language: keywords get in_/out_/attr_; an output or attr
// named like an input becomes ref_<name> / attr_<name> (CANN's generator rules).
struct ParamNames {
  std::map<std::string, std::string> in, out, attr;
};
ParamNames NamesFor(const OpProto &op, const std::set<std::string> &keywords);

std::string CString(const std::string &s);
std::string PyString(const std::string &s);
std::string Join(const std::vector<std::string> &items, const std::string &sep);

// The default of an optional attr as a literal, in C++ (cpp=true) or Python; false when the
// listed default is not of the attr's type.
bool DefaultLiteral(const IrAttr &a, bool cpp, std::string *out);

enum class Returns { kNone, kSingle, kStruct };
Returns ReturnsOf(const OpProto &op);
bool AllOptional(const OpProto &op);
// The include guard of a generated header.
std::string Guard(const Options &o, const std::string &file);

// A parameter list where a default may only be given if every later parameter has one.
struct Param {
  std::string decl;
  std::string default_value;  // "" = none
};
std::vector<std::string> WithTrailingDefaults(const std::vector<Param> &params, const std::string &assign);

// The emitters: each adds its files for one op to *files.
void GenerateC(const OpProto &op, const Options &o,
               std::map<std::string, std::string> *files);  // es_<op>_c.h, es_<op>.cpp
void GenerateCpp(const OpProto &op, const Options &o, std::map<std::string, std::string> *files);     // es_<op>.h
void GeneratePython(const OpProto &op, const Options &o, std::map<std::string, std::string> *files);  // es_<op>.py

}  // namespace gen_esb::emit

#endif  // TWIN_ES_GEN_ESB_EMIT_COMMON_H_

// gen_esb's code generator: op prototypes (from the graph library's listing) -> the C, C++ and
// Python ES sources of one module, as a map of file name -> contents (nothing is written here).
#ifndef TWIN_ES_GEN_ESB_GENERATOR_H_
#define TWIN_ES_GEN_ESB_GENERATOR_H_

#include <map>
#include <string>
#include <vector>

#include "twin/graph/proto/graph_c_api.pb.h"

namespace gen_esb {
enum class InputKind { kRequired, kOptional, kDynamic };

struct IrInput {
  std::string name;
  InputKind kind;
};
struct IrOutput {
  std::string name;
  bool dynamic;
};
struct IrAttr {
  std::string name;
  std::string type;  // REG_OP's type name: Int, Float, ..., ListListInt
  std::string vt;    // the VT_* name of ge.graph's AttrValueType
  bool required;
  ge::twin::air::AttrValue default_value;  // as the graph library lists it
};
struct OpProto {
  std::string type;
  std::vector<IrInput> inputs;
  std::vector<IrOutput> outputs;
  std::vector<IrAttr> attrs;
};

// Reads one prototype of GeTwinGraphListOpProtos' OpProtoList; false with *error naming the op.
bool ReadOpProto(const ge::twin::capi::OpProto &entry, OpProto *op, std::string *error);

struct Options {
  std::string module_name = "all";
  std::string h_guard_prefix;
};

// Every file of the module: es_<op>_c.h/.cpp/.h/.py per op, the es_<module>_ops* aggregates.
// False with *error when an op cannot be expressed (e.g. an attr type the twin does not support).
bool GenerateModule(const std::vector<OpProto> &ops, const Options &options, std::map<std::string, std::string> *files,
                    std::string *error);
}  // namespace gen_esb

#endif  // TWIN_ES_GEN_ESB_GENERATOR_H_

/* ge/ge_ir_build.h: build a ge::Graph into an offline model (OM) in memory and save it
 * (libge_compiler.so). Names and signatures are CANN's. */
#ifndef INC_EXTERNAL_GE_IR_BUILD_H_
#define INC_EXTERNAL_GE_IR_BUILD_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "ge/ge_api_types.h"
#include "graph/ge_error_codes.h"
#include "graph/graph.h"

namespace ge {
const int32_t IR_MAJOR_VERSION = 1;
const int32_t IR_MINOR_VERSION = 0;
const int32_t IR_PATCH_VERSION = 0;

struct ModelBufferData {
  std::shared_ptr<uint8_t> data = nullptr;
  uint64_t length;
};

// Global options: ge.socVersion (required) and the names in ir_option::global_options.
ATTRIBUTED_DEPRECATED(GE_FUNC_VISIBILITY graphStatus aclgrphBuildInitialize(std::map<AscendString, AscendString> &))
GE_FUNC_VISIBILITY graphStatus aclgrphBuildInitialize(std::map<std::string, std::string> global_options);
GE_FUNC_VISIBILITY graphStatus aclgrphBuildInitialize(std::map<AscendString, AscendString> &global_options);

GE_FUNC_VISIBILITY void aclgrphBuildFinalize();

// Build options: the names in ir_option::ir_builder_suppported_options; anything else fails with
// GRAPH_PARAM_INVALID.
ATTRIBUTED_DEPRECATED(GE_FUNC_VISIBILITY graphStatus aclgrphBuildModel(const ge::Graph &,
                                                                       const std::map<AscendString, AscendString> &,
                                                                       ModelBufferData &))
GE_FUNC_VISIBILITY graphStatus aclgrphBuildModel(const ge::Graph &graph,
                                                 const std::map<std::string, std::string> &build_options,
                                                 ModelBufferData &model);
GE_FUNC_VISIBILITY graphStatus aclgrphBuildModel(const ge::Graph &graph,
                                                 const std::map<AscendString, AscendString> &build_options,
                                                 ModelBufferData &model);

// Writes <output_file>.om (temp file + rename: the target is either whole or untouched).
ATTRIBUTED_DEPRECATED(GE_FUNC_VISIBILITY graphStatus aclgrphSaveModel(const char_t *, const ModelBufferData &))
GE_FUNC_VISIBILITY graphStatus aclgrphSaveModel(const std::string &output_file, const ModelBufferData &model);
GE_FUNC_VISIBILITY graphStatus aclgrphSaveModel(const char_t *output_file, const ModelBufferData &model);

GE_FUNC_VISIBILITY graphStatus aclgrphGetIRVersion(int32_t *major_version, int32_t *minor_version,
                                                   int32_t *patch_version);
}  // namespace ge

#endif  // INC_EXTERNAL_GE_IR_BUILD_H_

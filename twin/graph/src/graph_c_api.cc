// The C ABI (include/ge_twin/graph_c_api.h): JSON in, JSON out, malloc'ed strings.
#include "ge_twin/graph_c_api.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "graph/ge_error_codes.h"
#include "air_describe.h"
#include "escape.h"
#include "json.h"
#include "log.h"
#include "op_protos.h"
#include "opp_loader.h"

namespace {
char *CopyOut(const std::string &s) {
  char *out = static_cast<char *>(std::malloc(s.size() + 1));
  if (out != nullptr) std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

uint32_t Finish(const ge_twin::CallError &result, const std::string &json, char **json_out, char **error_out) {
  if (json_out != nullptr) *json_out = result.ok() ? CopyOut(json) : nullptr;
  if (error_out != nullptr) *error_out = result.ok() ? nullptr : CopyOut(ge_twin::EscapeControl(result.message));
  if (!result.ok()) GE_TWIN_LOGE("%s", result.message.c_str());
  return result.status;
}
}  // namespace

extern "C" {
uint32_t GeTwinGraphApiVersion(void) { return GE_TWIN_GRAPH_C_API_VERSION; }

uint32_t GeTwinGraphLoadOppLibraries(const char *root_list, char **loaded_json_out, char **error_out) {
  std::string roots;
  if (root_list != nullptr) {
    roots = root_list;
  } else if (const char *env = std::getenv("ASCEND_CUSTOM_OPP_PATH")) {
    roots = env;
  }
  // The OPP tree is always the environment's: CANN reads ASCEND_OPP_PATH, never a caller's list.
  const char *opp_path = std::getenv("ASCEND_OPP_PATH");
  std::vector<std::string> loaded;
  ge_twin::CallError result;
  std::string err = ge_twin::LoadOppLibraries(roots, opp_path == nullptr ? "" : opp_path, &loaded);
  if (!err.empty()) result = ge_twin::CallError{ge::GRAPH_FAILED, err};
  ge_twin::json::Value list = ge_twin::json::Value::Array();
  for (const auto &path : loaded) list.Append(ge_twin::json::Value::String(path));
  ge_twin::json::Value out = ge_twin::json::Value::Object();
  out.Set("loaded", std::move(list));
  return Finish(result, out.Dump(), loaded_json_out, error_out);
}

uint32_t GeTwinGraphListOpProtos(char **json_out, char **error_out) {
  return Finish(ge_twin::CallError(), ge_twin::ListOpProtos().Dump(), json_out, error_out);
}

uint32_t GeTwinGraphInferOp(const char *request_json, char **json_out, char **error_out) {
  ge_twin::json::Value request;
  std::string parse_error;
  if (request_json == nullptr) {
    return Finish(ge_twin::CallError{ge::GRAPH_PARAM_INVALID, "inference request is NULL"}, "", json_out, error_out);
  }
  if (!ge_twin::json::Parse(request_json, &request, &parse_error)) {
    return Finish(ge_twin::CallError{ge::GRAPH_PARAM_INVALID, "inference request is not valid JSON: " + parse_error}, "",
                  json_out, error_out);
  }
  ge_twin::json::Value response;
  ge_twin::CallError result;
  {
    // Error lines logged during the call (the op's OP_LOGE, the library's own) are its cause:
    // appended to the returned message so they reach the caller, not only stderr.
    ge_twin::ScopedErrorCapture diagnostics;
    try {
      result = ge_twin::InferOp(request, &response);
    } catch (const std::exception &e) {
      result = ge_twin::CallError{ge::GRAPH_FAILED, std::string("an inference function threw: ") + e.what()};
    } catch (...) {
      result = ge_twin::CallError{ge::GRAPH_FAILED, "an inference function threw a non-standard exception"};
    }
    if (!result.ok()) result.message += diagnostics.CauseSuffix();
  }
  return Finish(result, result.ok() ? response.Dump() : "", json_out, error_out);
}

uint32_t GeTwinGraphDescribeAir(const char *path, char **json_out, char **error_out) {
  if (path == nullptr) {
    return Finish(ge_twin::CallError{ge::GRAPH_PARAM_INVALID, "AIR path is NULL"}, "", json_out, error_out);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Finish(ge_twin::CallError{ge::GRAPH_FAILED, std::string("AIR file '") + path + "' cannot be opened"}, "",
                  json_out, error_out);
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  ge_twin::json::Value description;
  std::string err = ge_twin::DescribeAir(bytes.str(), path, &description);
  ge_twin::CallError result;
  if (!err.empty()) result = ge_twin::CallError{ge::GRAPH_FAILED, err};
  return Finish(result, result.ok() ? description.Dump() : "", json_out, error_out);
}

void GeTwinGraphFreeString(char *s) { std::free(s); }
}  // extern "C"

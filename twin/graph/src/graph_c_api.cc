// The C ABI (include/ge_twin/graph_c_api.h): serialized ge.twin.capi messages in and out
// (proto/graph_c_api.proto), malloc'ed buffers, one-line errors.
#include "ge_twin/graph_c_api.h"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "c_api_codec.h"
#include "graph/ge_error_codes.h"
#include "escape.h"
#include "log.h"
#include "op_infer.h"
#include "opp_loader.h"

namespace {
namespace capi = ::ge::twin::capi;

char *CopyOut(const std::string &s) {
  char *out = static_cast<char *>(std::malloc(s.size() + 1));
  if (out != nullptr) std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

// Hands the serialized response (on success) or the error line (on failure) to the caller.
template <typename Message>
uint32_t Finish(const ge_twin::CallError &result, const Message &response, void **out_data, size_t *out_size,
                char **error_out) {
  if (out_data != nullptr) *out_data = nullptr;
  if (out_size != nullptr) *out_size = 0;
  if (result.ok() && out_data != nullptr) {
    const std::string bytes = response.SerializeAsString();
    *out_data = std::malloc(bytes.empty() ? 1 : bytes.size());
    if (*out_data != nullptr) {
      std::memcpy(*out_data, bytes.data(), bytes.size());
      if (out_size != nullptr) *out_size = bytes.size();
    }
  }
  if (error_out != nullptr) *error_out = result.ok() ? nullptr : CopyOut(ge_twin::EscapeControl(result.message));
  if (!result.ok()) GE_TWIN_LOGE("%s", result.message.c_str());
  return result.status;
}

ge_twin::CallError InferFromBytes(const void *request, size_t request_size, capi::InferResponse *response) {
  if (request == nullptr && request_size != 0) return ge_twin::Invalid("inference request is NULL");
  if (request_size > static_cast<size_t>(INT_MAX)) return ge_twin::Invalid("inference request is larger than 2 GiB");
  capi::InferRequest message;
  if (!message.ParseFromArray(request, static_cast<int>(request_size))) {
    return ge_twin::Invalid("inference request (" + std::to_string(request_size) +
                            " bytes) is not a valid ge.twin.capi.InferRequest message");
  }
  ge_twin::InferCall call;
  ge_twin::CallError result = ge_twin::DecodeInferRequest(message, &call);
  if (!result.ok()) return result;
  std::vector<ge_twin::InferredOutput> outputs;
  // Error lines logged during the call (the op's OP_LOGE, the library's own) are its cause:
  // appended to the returned message so they reach the caller, not only stderr.
  ge_twin::ScopedErrorCapture diagnostics;
  try {
    result = ge_twin::InferOp(call, &outputs);
  } catch (const std::exception &e) {
    result = ge_twin::CallError{ge::GRAPH_FAILED, std::string("an inference function threw: ") + e.what()};
  } catch (...) {
    result = ge_twin::CallError{ge::GRAPH_FAILED, "an inference function threw a non-standard exception"};
  }
  if (!result.ok()) {
    result.message += diagnostics.CauseSuffix();
    return result;
  }
  ge_twin::EncodeInferResponse(call.op_type, outputs, response);
  return result;
}
}  // namespace

extern "C" {
uint32_t GeTwinGraphApiVersion(void) { return GE_TWIN_GRAPH_C_API_VERSION; }

uint32_t GeTwinGraphLoadOppLibraries(const char *root_list, void **out_data, size_t *out_size, char **error_out) {
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
  capi::LoadedLibraries response;
  for (const auto &path : loaded) response.add_paths(path);
  return Finish(result, response, out_data, out_size, error_out);
}

uint32_t GeTwinGraphListOpProtos(void **out_data, size_t *out_size, char **error_out) {
  capi::OpProtoList response;
  ge_twin::EncodeOpProtoList(&response);
  return Finish(ge_twin::CallError(), response, out_data, out_size, error_out);
}

uint32_t GeTwinGraphInferOp(const void *request, size_t request_size, void **out_data, size_t *out_size,
                            char **error_out) {
  capi::InferResponse response;
  ge_twin::CallError result = InferFromBytes(request, request_size, &response);
  return Finish(result, response, out_data, out_size, error_out);
}

uint32_t GeTwinGraphDescribeAir(const char *path, void **out_data, size_t *out_size, char **error_out) {
  capi::AirDescription description;
  if (path == nullptr) return Finish(ge_twin::Invalid("AIR path is NULL"), description, out_data, out_size, error_out);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Finish(ge_twin::CallError{ge::GRAPH_FAILED, std::string("AIR file '") + path + "' cannot be opened"},
                  description, out_data, out_size, error_out);
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  ge_twin::CallError result;
  std::string err = ge_twin::DescribeAir(bytes.str(), path, &description);
  if (!err.empty()) result = ge_twin::CallError{ge::GRAPH_FAILED, err};
  return Finish(result, description, out_data, out_size, error_out);
}

void GeTwinGraphFreeBuffer(void *data) { std::free(data); }

void GeTwinGraphFreeString(char *s) { std::free(s); }
}  // extern "C"

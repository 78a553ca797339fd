// libge_compiler.so: aclgrphBuildInitialize / aclgrphBuildModel / aclgrphSaveModel /
// aclgrphBuildFinalize / aclgrphGetIRVersion (CANN's ge/ge_ir_build.h).
#include "ge/ge_ir_build.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <vector>

#include "twin/ge/src/build_options.h"
#include "twin/ge/src/child_compile.h"
#include "twin/ge/src/ge_log.h"

namespace ge {
namespace {

std::mutex g_mutex;
bool g_initialized = false;
std::map<std::string, std::string> g_global_options;

const std::set<std::string> kInputFormats = {"ND", "NCHW", "NHWC", "NCDHW", "NDHWC"};
const std::set<std::string> kLogLevels = {"debug", "info", "warning", "error", "null"};

graphStatus Initialize(const std::map<std::string, std::string> &options) {
  static const char *kApi = "aclgrphBuildInitialize";
  const auto soc = options.find(ge_twin::kSocVersionOption);
  if (soc == options.end() || soc->second.empty()) {
    ge_twin::LogError(std::string(kApi) + ": the global option " + ge_twin::kSocVersionOption +
                      " is required (e.g. {\"ge.socVersion\", \"Ascend910B1\"})");
    return GRAPH_PARAM_INVALID;
  }
  const graphStatus status = ge_twin::CheckSocVersion(kApi, soc->second);
  if (status != GRAPH_SUCCESS) return status;
  for (const auto &kv : options) {
    if (ir_option::global_options.count(kv.first) == 0) {
      // CANN warns and goes on; so does the twin.
      ge_twin::LogWarning(std::string(kApi) + ": unknown global option \"" + kv.first + "\" is ignored");
    }
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_global_options = options;
  g_initialized = true;
  return GRAPH_SUCCESS;
}

graphStatus BuildModel(const Graph &graph, const std::map<std::string, std::string> &options, ModelBufferData &model) {
  static const char *kApi = "aclgrphBuildModel";
  ge_twin::CompileRequest request;
  request.api = kApi;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_initialized) {
      ge_twin::LogError(std::string(kApi) +
                        ": aclgrphBuildInitialize has not been called (or aclgrphBuildFinalize "
                        "was called since)");
      return GRAPH_FAILED;
    }
    request.soc_version = g_global_options[ge_twin::kSocVersionOption];
  }
  for (const auto &kv : options) {
    if (ir_option::ir_builder_suppported_options.count(kv.first) == 0) {
      ge_twin::LogError(std::string(kApi) + ": build option \"" + kv.first +
                        "\" is not supported (see ge::ir_option::ir_builder_suppported_options)");
      return GRAPH_PARAM_INVALID;
    }
  }
  const auto value = [&options](const char *key) {
    const auto it = options.find(key);
    return it == options.end() ? std::string() : it->second;
  };
  const std::string format = value(ir_option::INPUT_FORMAT);
  if (options.count(ir_option::INPUT_FORMAT) != 0 && kInputFormats.count(format) == 0) {
    ge_twin::LogError(std::string(kApi) + ": build option input_format=\"" + format +
                      "\" is invalid; the value must be any of ND, NCHW, NHWC, NCDHW, NDHWC");
    return GRAPH_PARAM_INVALID;
  }
  request.log_level = value(ir_option::LOG_LEVEL);
  if (options.count(ir_option::LOG_LEVEL) != 0 && kLogLevels.count(request.log_level) == 0) {
    ge_twin::LogError(std::string(kApi) + ": build option log=\"" + request.log_level +
                      "\" is invalid; the value must be any of debug, info, warning, error, null");
    return GRAPH_PARAM_INVALID;
  }
  request.input_shape = value(ir_option::INPUT_SHAPE);
  request.input_shape_range = value(ir_option::INPUT_SHAPE_RANGE);
  std::vector<uint8_t> om;
  const graphStatus status = ge_twin::CompileInChild(graph, request, &om);
  if (status != GRAPH_SUCCESS) return status;
  std::shared_ptr<uint8_t> data(new uint8_t[om.size()], std::default_delete<uint8_t[]>());
  std::memcpy(data.get(), om.data(), om.size());
  model.data = data;
  model.length = om.size();
  return GRAPH_SUCCESS;
}

// Temp file in the target directory, fsync, rename: the target is whole or untouched.
graphStatus SaveModel(const char *output_file, const ModelBufferData &model) {
  static const char *kApi = "aclgrphSaveModel";
  if (output_file == nullptr || *output_file == '\0') {
    ge_twin::LogError(std::string(kApi) + ": output_file is null or empty");
    return GRAPH_PARAM_INVALID;
  }
  if (model.data == nullptr || model.length == 0) {
    ge_twin::LogError(std::string(kApi) + ": the model buffer is empty (build it with aclgrphBuildModel first)");
    return GRAPH_PARAM_INVALID;
  }
  // The OM container starts with CANN's model magic, "IMOD" on disk (twin/om/FORMAT.md).
  if (model.length < 4 || std::memcmp(model.data.get(), "IMOD", 4) != 0) {
    ge_twin::LogError(std::string(kApi) +
                      ": the buffer is not an offline model built by aclgrphBuildModel "
                      "(bundle and flow models are not supported)");
    return GRAPH_PARAM_INVALID;
  }
  const std::string path = std::string(output_file) + ".om";
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string tmp = dir + "/." + base + ".XXXXXX";
  std::vector<char> name(tmp.begin(), tmp.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) {
    ge_twin::LogError(std::string(kApi) + ": cannot write " + path + ": " + std::strerror(errno));
    return GRAPH_FAILED;
  }
  tmp = name.data();
  const uint8_t *bytes = model.data.get();
  uint64_t left = model.length;
  int err = 0;
  while (left > 0 && err == 0) {
    const ssize_t n = write(fd, bytes, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      err = n < 0 ? errno : EIO;
    else {
      bytes += n;
      left -= static_cast<uint64_t>(n);
    }
  }
  if (err == 0 && fsync(fd) != 0) err = errno;
  if (err == 0 && fchmod(fd, 0644) != 0) err = errno;  // mkstemp makes 0600; an OM is an ordinary file
  if (close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    unlink(tmp.c_str());
    ge_twin::LogError(std::string(kApi) + ": cannot write " + path + ": " + std::strerror(err));
    return GRAPH_FAILED;
  }
  return GRAPH_SUCCESS;
}

std::map<std::string, std::string> ToStd(const std::map<AscendString, AscendString> &options) {
  return ge_twin::ToStdMap(options);
}

}  // namespace

// NOLINTNEXTLINE(performance-unnecessary-value-param): CANN's signature (ge_ir_build.h), by value
graphStatus aclgrphBuildInitialize(std::map<std::string, std::string> global_options) {
  return Initialize(global_options);
}

graphStatus aclgrphBuildInitialize(std::map<AscendString, AscendString> &global_options) {
  return Initialize(ToStd(global_options));
}

void aclgrphBuildFinalize() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_initialized = false;
  g_global_options.clear();
}

graphStatus aclgrphBuildModel(const Graph &graph, const std::map<std::string, std::string> &build_options,
                              ModelBufferData &model) {
  return BuildModel(graph, build_options, model);
}

graphStatus aclgrphBuildModel(const Graph &graph, const std::map<AscendString, AscendString> &build_options,
                              ModelBufferData &model) {
  return BuildModel(graph, ToStd(build_options), model);
}

graphStatus aclgrphSaveModel(const std::string &output_file, const ModelBufferData &model) {
  return SaveModel(output_file.c_str(), model);
}

graphStatus aclgrphSaveModel(const char_t *output_file, const ModelBufferData &model) {
  return SaveModel(output_file, model);
}

graphStatus aclgrphGetIRVersion(int32_t *major_version, int32_t *minor_version, int32_t *patch_version) {
  if (major_version == nullptr || minor_version == nullptr || patch_version == nullptr) {
    ge_twin::LogError("aclgrphGetIRVersion: null output pointer");
    return GRAPH_PARAM_INVALID;
  }
  *major_version = IR_MAJOR_VERSION;
  *minor_version = IR_MINOR_VERSION;
  *patch_version = IR_PATCH_VERSION;
  return GRAPH_SUCCESS;
}

}  // namespace ge

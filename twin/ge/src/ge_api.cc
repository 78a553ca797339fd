// libge_runner.so: GEInitialize / GEFinalize / GEGetErrorMsg (CANN's ge/ge_api.h), the process-wide
// GE state every ge::Session call runs under (ge_state.h). The Session itself is session.cc.
#include "ge/ge_api.h"

#include <cstdlib>
#include <mutex>
#include <shared_mutex>

#include "acl/acl.h"
#include "twin/ge/src/build_options.h"
#include "twin/ge/src/dynamic_run.h"
#include "twin/ge/src/ge_log.h"
#include "twin/ge/src/ge_state.h"
#include "twin/ge/src/loaded_model.h"

namespace ge_twin {

GeState &State() {
  static GeState *state = new GeState();  // never destroyed: sessions may outlive static destructors
  return *state;
}

}  // namespace ge_twin

namespace ge {
namespace {

using ge_twin::AclFailure;
using ge_twin::GeState;
using ge_twin::OptionOr;
using ge_twin::State;
using model_run::kParamInvalid;

Status Initialize(const std::map<std::string, std::string> &options) {
  static const char *kApi = "GEInitialize";
  GeState &state = State();
  std::unique_lock<std::shared_mutex> lock(state.mutex);
  if (state.initialized) return SUCCESS;  // CANN: a second GEInitialize is a no-op
  const std::string device_text = OptionOr(options, OPTION_EXEC_DEVICE_ID, "0");
  char *end = nullptr;
  const long device = std::strtol(device_text.c_str(), &end, 10);
  if (end == device_text.c_str() || *end != '\0' || device < 0 || device > INT32_MAX) {
    ge_twin::LogError(std::string(kApi) + ": option " + OPTION_EXEC_DEVICE_ID + "=\"" + device_text +
                      "\" is not a device id (a non-negative integer)");
    return kParamInvalid;
  }
  const std::string soc = OptionOr(options, SOC_VERSION, "");
  if (!soc.empty() && ge_twin::CheckSocVersion(kApi, soc) != GRAPH_SUCCESS) return kParamInvalid;
  aclError ret = aclInit(nullptr);
  const bool inited_here = ret == ACL_SUCCESS;
  if (ret != ACL_SUCCESS && ret != ACL_ERROR_REPEAT_INITIALIZE) {
    ge_twin::LogError(std::string(kApi) + ": " + AclFailure("aclInit", ret));
    return FAILED;
  }
  ret = aclrtSetDevice(static_cast<int32_t>(device));
  if (ret != ACL_SUCCESS) {
    ge_twin::LogError(std::string(kApi) + ": " + AclFailure("aclrtSetDevice", ret));
    if (inited_here) aclFinalize();
    return FAILED;
  }
  aclrtContext context = nullptr;
  ret = aclrtGetCurrentContext(&context);
  if (ret != ACL_SUCCESS) {
    ge_twin::LogError(std::string(kApi) + ": " + AclFailure("aclrtGetCurrentContext", ret));
    aclrtResetDevice(static_cast<int32_t>(device));
    if (inited_here) aclFinalize();
    return FAILED;
  }
  state.initialized = true;
  state.acl_initialized_here = inited_here;
  state.device_id = static_cast<int32_t>(device);
  state.context = context;
  state.options = options;
  return SUCCESS;
}

}  // namespace

Status GEInitialize(const std::map<std::string, std::string> &options) { return Initialize(options); }

Status GEInitialize(const std::map<AscendString, AscendString> &options) {
  return Initialize(ge_twin::ToStdMap(options));
}

Status GEFinalize() {
  GeState &state = State();
  std::unique_lock<std::shared_mutex> lock(state.mutex);
  if (!state.initialized) return SUCCESS;
  aclrtSetCurrentContext(state.context);
  for (SessionImpl *session : state.sessions) ge_twin::ReleaseSessionModels(session);
  aclrtResetDevice(state.device_id);
  if (state.acl_initialized_here) aclFinalize();
  state.initialized = false;
  state.acl_initialized_here = false;
  state.context = nullptr;
  state.options.clear();
  return SUCCESS;
}

std::string GEGetErrorMsg() { return ge_twin::LastErrorMessage(); }
AscendString GEGetErrorMsgV2() { return AscendString(ge_twin::LastErrorMessage().c_str()); }
std::string GEGetWarningMsg() { return ge_twin::LastWarningMessage(); }
AscendString GEGetWarningMsgV2() { return AscendString(ge_twin::LastWarningMessage().c_str()); }

}  // namespace ge

// aclInit / aclFinalize / aclGetRecentErrMsg / aclrtGetLastError / aclrtPeekAtLastError / aclrtGetSocName.
#include <cstdlib>
#include <string>

#include "acl/acl.h"
#include "twin/runtime/src/acl_config.h"
#include "twin/runtime/src/api_common.h"

using namespace asc_twin::rt;

extern "C" {

aclError aclInit(const char *configPath) {
  Status config = CheckAclConfig(configPath);
  if (!config.ok()) return Report(config);
  return Report(Runtime::Init());
}

aclError aclFinalize() { return Report(Runtime::Finalize()); }

const char *aclGetRecentErrMsg() { return TakeRecentErrors(); }

// Only the thread level exists; another level fails like any call (and becomes the last error).
static aclError BadLevel(const char *api, aclrtLastErrLevel level) {
  return Report(Status(
      ACL_ERROR_INVALID_PARAM,
      std::string(api) + ": level " + std::to_string(static_cast<int>(level)) + " is not ACL_RT_THREAD_LEVEL (0)"));
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
  if (level != ACL_RT_THREAD_LEVEL) return BadLevel("aclrtGetLastError", level);
  return TakeLastError();
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
  if (level != ACL_RT_THREAD_LEVEL) return BadLevel("aclrtPeekAtLastError", level);
  return PeekLastError();
}

const char *aclrtGetSocName() {
  if (!Runtime::GetOrInit()) return nullptr;
  const SocSpec *soc = FindSoc(ConfiguredSocName());
  return soc != nullptr ? soc->soc_version : nullptr;
}

}  // extern "C"

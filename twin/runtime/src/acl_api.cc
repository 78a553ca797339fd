// aclInit / aclFinalize / aclGetRecentErrMsg / aclrtGetSocName.
#include <unistd.h>

#include <cstdlib>

#include "acl/acl.h"
#include "twin/runtime/src/api_common.h"

using namespace asc_twin::rt;

extern "C" {

aclError aclInit(const char *configPath) {
  if (configPath != nullptr && *configPath != '\0' && access(configPath, R_OK) != 0) {
    return Report(Status(ACL_ERROR_INVALID_FILE,
                         std::string("aclInit: config file '") + configPath + "' does not exist or is not readable"));
  }
  return Report(Runtime::Init());
}

aclError aclFinalize() { return Report(Runtime::Finalize()); }

const char *aclGetRecentErrMsg() { return TakeRecentErrors(); }

const char *aclrtGetSocName() {
  if (!Runtime::GetOrInit()) return nullptr;
  const char *env = std::getenv(kSocVersionEnv);
  const SocSpec *soc = FindSoc((env != nullptr && *env != '\0') ? env : kDefaultSocVersion);
  return soc != nullptr ? soc->soc_version : nullptr;
}

}  // extern "C"

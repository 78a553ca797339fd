// aclInit / aclFinalize / aclGetRecentErrMsg / aclrtGetSocName.
#include <cstdlib>

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

const char *aclrtGetSocName() {
  if (!Runtime::GetOrInit()) return nullptr;
  const char *env = std::getenv(kSocVersionEnv);
  const SocSpec *soc = FindSoc((env != nullptr && *env != '\0') ? env : kDefaultSocVersion);
  return soc != nullptr ? soc->soc_version : nullptr;
}

}  // extern "C"

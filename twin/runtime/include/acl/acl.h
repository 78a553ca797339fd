/*
 * CPU twin of CANN's acl/acl.h: process init/finalize and error messages; includes the
 * runtime API (acl_rt.h) and, when the model executor is linked in (twin/runtime/model puts
 * acl/acl_mdl.h on the include path), the model API.
 */
#ifndef INC_EXTERNAL_ACL_ACL_H_
#define INC_EXTERNAL_ACL_ACL_H_

#include "acl_base.h"
#include "acl_rt.h"
#if defined(__has_include)
#if __has_include("acl/acl_mdl.h")
#include "acl/acl_mdl.h"
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_PKG_VERSION_MAX_SIZE 128
#define ACL_PKG_VERSION_PARTS_MAX_SIZE 64

/* configPath may be nullptr; a non-null path must name a readable file (its content, a JSON
 * dump/profiling config on CANN, is not interpreted by the twin). */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize();

/* Obtains and clears this thread's error messages (newest first, one per line); nullptr if
 * there is none. The pointer is valid until the next call on the same thread. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg();

#ifdef __cplusplus
}
#endif

#endif  // INC_EXTERNAL_ACL_ACL_H_

/*
 * CPU twin of CANN's acl/acl.h: process init/finalize and error messages; includes the
 * runtime API (acl_rt.h) and the model API (acl_mdl.h, from twin/runtime/model).
 */
#ifndef INC_EXTERNAL_ACL_ACL_H_
#define INC_EXTERNAL_ACL_ACL_H_

#include "acl_base.h"
#include "acl_rt.h"
#include "acl/acl_mdl.h"

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

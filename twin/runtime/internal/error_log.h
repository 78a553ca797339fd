// How the ACL entry points report a failure: one ERROR line through the twin's logger
// (twin/common/log: plog files, or stdout with ASCEND_SLOG_PRINT_TO_STDOUT=1) and the message
// kept for this thread's aclGetRecentErrMsg ("obtains and clears", newest first); its code is
// the thread's last error (aclrtGetLastError / aclrtPeekAtLastError).
#ifndef TWIN_RUNTIME_INTERNAL_ERROR_LOG_H_
#define TWIN_RUNTIME_INTERNAL_ERROR_LOG_H_

#include "twin/runtime/internal/status.h"

namespace asc_twin::rt {

// Logs and keeps a failed status (the line names the caller's file:line); returns its code.
// ACL_SUCCESS records nothing.
aclError Report(const Status &status, const char *file = __builtin_FILE(), int line = __builtin_LINE());

// The calling thread's last failed code (ACL_SUCCESS if none since the last take); Take clears it.
aclError PeekLastError();
aclError TakeLastError();

// For aclGetRecentErrMsg: the kept messages joined newest first, then cleared; nullptr if none.
const char *TakeRecentErrors();

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_ERROR_LOG_H_

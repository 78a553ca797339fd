// Per-thread error messages behind aclGetRecentErrMsg ("obtains and clears", newest first).
#ifndef TWIN_RUNTIME_INTERNAL_ERROR_LOG_H_
#define TWIN_RUNTIME_INTERNAL_ERROR_LOG_H_

#include "twin/runtime/internal/status.h"

namespace asc_twin::rt {

// Records a failed status for this thread (and prints it when ASCEND_SLOG_PRINT_TO_STDOUT=1);
// returns its code. ACL_SUCCESS records nothing.
aclError Report(const Status &status);

// For aclGetRecentErrMsg: the pending messages joined newest first, then cleared; nullptr if none.
const char *TakeRecentErrors();

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_ERROR_LOG_H_

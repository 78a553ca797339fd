#include "twin/runtime/internal/error_log.h"

#include <string>

#include "twin/common/log/log.h"

namespace asc_twin::rt {
namespace {
thread_local aclError g_last_error = ACL_SUCCESS;
}  // namespace

aclError Report(const Status &status, const char *file, int line) {
  if (status.ok()) return ACL_SUCCESS;
  g_last_error = status.code();
  ascend_twin::log::KeepRecentError(status.message());
  ascend_twin::log::Write(ascend_twin::log::Level::kError, ascend_twin::log::kAscendCl, file, line,
                          status.message() + " (error " + std::to_string(status.code()) + ")");
  return status.code();
}

aclError PeekLastError() { return g_last_error; }

aclError TakeLastError() {
  const aclError code = g_last_error;
  g_last_error = ACL_SUCCESS;
  return code;
}

const char *TakeRecentErrors() { return ascend_twin::log::TakeRecentErrors(); }

}  // namespace asc_twin::rt

#include "twin/runtime/internal/error_log.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>

namespace asc_twin::rt {
namespace {

constexpr size_t kMaxPending = 32;  // oldest dropped beyond this

struct ThreadErrors {
  std::deque<std::string> pending;  // oldest first
  std::string returned;             // storage for the pointer handed out last
};

thread_local ThreadErrors t_errors;

bool PrintToStdout() {
  const char *env = std::getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
  return env != nullptr && std::strcmp(env, "1") == 0;
}

}  // namespace

aclError Report(const Status &status) {
  if (status.ok()) return ACL_SUCCESS;
  ThreadErrors &errors = t_errors;
  errors.pending.push_back(status.message());
  if (errors.pending.size() > kMaxPending) errors.pending.pop_front();
  if (PrintToStdout()) {
    std::printf("[ERROR] ASCENDCL(%d,twin): %s (error %d)\n", static_cast<int>(getpid()), status.message().c_str(),
                status.code());
    std::fflush(stdout);
  }
  return status.code();
}

const char *TakeRecentErrors() {
  ThreadErrors &errors = t_errors;
  if (errors.pending.empty()) return nullptr;
  errors.returned.clear();
  for (auto it = errors.pending.rbegin(); it != errors.pending.rend(); ++it) {
    if (!errors.returned.empty()) errors.returned += '\n';
    errors.returned += *it;
  }
  errors.pending.clear();
  return errors.returned.c_str();
}

}  // namespace asc_twin::rt

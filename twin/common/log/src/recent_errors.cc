// The last errors of each thread, behind aclGetRecentErrMsg ("obtains and clears", newest first).
#include <deque>
#include <string>

#include "twin/common/log/log.h"

namespace ascend_twin::log {
namespace {

constexpr size_t kMaxKept = 32;  // oldest dropped beyond this

struct ThreadErrors {
  std::deque<std::string> kept;  // oldest first
  std::string returned;          // storage for the pointer handed out last
};

thread_local ThreadErrors t_errors;

}  // namespace

void KeepRecentError(const std::string &message) {
  ThreadErrors &errors = t_errors;
  errors.kept.push_back(Printable(message));
  if (errors.kept.size() > kMaxKept) errors.kept.pop_front();
}

const char *TakeRecentErrors() {
  ThreadErrors &errors = t_errors;
  if (errors.kept.empty()) return nullptr;
  errors.returned.clear();
  for (auto it = errors.kept.rbegin(); it != errors.kept.rend(); ++it) {
    if (!errors.returned.empty()) errors.returned += '\n';
    errors.returned += *it;
  }
  errors.kept.clear();
  return errors.returned.c_str();
}

}  // namespace ascend_twin::log

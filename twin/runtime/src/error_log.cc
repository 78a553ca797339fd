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

// Control characters (e.g. from names in a crafted model) as \xNN: a message stays one line and
// cannot drive a terminal.
std::string Printable(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace

aclError Report(const Status &status) {
  if (status.ok()) return ACL_SUCCESS;
  ThreadErrors &errors = t_errors;
  errors.pending.push_back(Printable(status.message()));
  if (errors.pending.size() > kMaxPending) errors.pending.pop_front();
  if (PrintToStdout()) {
    std::printf("[ERROR] ASCENDCL(%d,twin): %s (error %d)\n", static_cast<int>(getpid()),
                errors.pending.back().c_str(), status.code());
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

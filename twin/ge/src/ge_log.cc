#include "twin/ge/src/ge_log.h"

#include <unistd.h>

#include <cstdio>
#include <mutex>

namespace ge_twin {
namespace {
std::mutex g_mutex;
std::string g_last_error;
std::string g_last_warning;
}  // namespace

void LogError(const std::string &line, const std::string &detail) {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::fprintf(stderr, "[ERROR] GE(%d): %s\n", static_cast<int>(getpid()), line.c_str());
  if (!detail.empty()) {
    std::fprintf(stderr, "%s%s", detail.c_str(), detail.back() == '\n' ? "" : "\n");
  }
  std::fflush(stderr);
  g_last_error = detail.empty() ? line : line + "\n" + detail;
}

void LogWarning(const std::string &line) {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::fprintf(stderr, "[WARNING] GE(%d): %s\n", static_cast<int>(getpid()), line.c_str());
  std::fflush(stderr);
  g_last_warning = line;
}

std::string LastErrorMessage() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_last_error;
}

std::string LastWarningMessage() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_last_warning;
}

}  // namespace ge_twin

// CANN's log variables, read at every call (so a program or a test may change them while it runs).
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "twin/common/log/src/log_internal.h"

namespace ascend_twin::log {
namespace internal {
namespace {

constexpr int kDefaultThreshold = 3;  // ERROR

const char *NonEmptyEnv(const char *name) {
  const char *value = std::getenv(name);
  return (value != nullptr && *value != '\0') ? value : nullptr;
}

// "0".."4" exactly; anything else is CANN's "invalid value: use the default".
int LevelValue(const std::string &text) {
  if (text.size() != 1 || text[0] < '0' || text[0] > '4') return -1;
  return text[0] - '0';
}

// ASCEND_MODULE_LOG_LEVEL=GE=1:ASCENDCL=0 -> the level of `module`, or -1.
int ModuleLevel(const char *module) {
  const char *spec = NonEmptyEnv("ASCEND_MODULE_LOG_LEVEL");
  if (spec == nullptr || module == nullptr) return -1;
  const std::string text = spec;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(':', start);
    if (end == std::string::npos) end = text.size();
    const std::string entry = text.substr(start, end - start);
    const size_t eq = entry.find('=');
    if (eq != std::string::npos && entry.compare(0, eq, module) == 0 && std::strlen(module) == eq) {
      return LevelValue(entry.substr(eq + 1));
    }
    start = end + 1;
  }
  return -1;
}

std::string HomeDirectory() {
  if (const char *home = NonEmptyEnv("HOME")) return home;
  struct passwd entry;
  struct passwd *found = nullptr;
  char buffer[4096];
  if (getpwuid_r(getuid(), &entry, buffer, sizeof(buffer), &found) == 0 && found != nullptr &&
      found->pw_dir != nullptr) {
    return found->pw_dir;
  }
  return "/tmp";
}

}  // namespace

bool PrintToStdout() {
  const char *value = std::getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

bool EventsEnabled() {
  const char *value = std::getenv("ASCEND_GLOBAL_EVENT_ENABLE");
  return value == nullptr || std::strcmp(value, "0") != 0;
}

namespace {
// Levels a program set through CANN's dlog_setlevel (this copy of the logger only).
std::mutex g_program_mu;
std::map<std::string, int> g_program_levels;  // module -> level
int g_program_global = -1;
int g_program_events = -1;  // -1: the environment decides
}  // namespace

int ProgramThreshold(const char *module) {
  std::lock_guard<std::mutex> lock(g_program_mu);
  if (module != nullptr) {
    const auto it = g_program_levels.find(module);
    if (it != g_program_levels.end()) return it->second;
  }
  return g_program_global;
}

int ThresholdFor(const char *module) {
  const int by_program = ProgramThreshold(module);
  if (by_program >= 0) return by_program;
  const int by_module = ModuleLevel(module);
  if (by_module >= 0) return by_module;
  const char *global = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
  const int level = global == nullptr ? -1 : LevelValue(global);
  return level >= 0 ? level : kDefaultThreshold;
}

bool ProgramEvents(bool from_environment) {
  std::lock_guard<std::mutex> lock(g_program_mu);
  return g_program_events < 0 ? from_environment : g_program_events != 0;
}

}  // namespace internal

void SetProgramLevel(const char *module, int level) {
  std::lock_guard<std::mutex> lock(internal::g_program_mu);
  const int value = level >= 0 && level <= 4 ? level : -1;
  if (module == nullptr) {
    internal::g_program_global = value;
    internal::g_program_levels.clear();
  } else if (value < 0) {
    internal::g_program_levels.erase(module);
  } else {
    internal::g_program_levels[module] = value;
  }
}

void SetProgramEvents(int enabled) {
  std::lock_guard<std::mutex> lock(internal::g_program_mu);
  internal::g_program_events = enabled < 0 ? -1 : (enabled != 0);
}

std::string LogRoot() {
  if (const char *path = internal::NonEmptyEnv("ASCEND_PROCESS_LOG_PATH")) return path;
  if (const char *work = internal::NonEmptyEnv("ASCEND_WORK_PATH")) return std::string(work) + "/log";
  return internal::HomeDirectory() + "/ascend/log";
}

}  // namespace ascend_twin::log

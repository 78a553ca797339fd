#include "log.h"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace ge_twin {
namespace {
int ThresholdFromEnv() {
  const char *value = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
  if (value == nullptr || value[0] < '0' || value[0] > '4' || value[1] != '\0') return 3;
  return value[0] - '0';
}

const char *LevelTag(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return "DEBUG";
    case LogLevel::kInfo: return "INFO";
    case LogLevel::kWarning: return "WARNING";
    default: return "ERROR";
  }
}
}  // namespace

void Log(LogLevel level, const char *fmt, ...) {
  if (static_cast<int>(level) < ThresholdFromEnv()) return;
  char message[2048];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(message, sizeof(message), fmt, args);
  va_end(args);
  // One write per line so concurrent loggers do not interleave inside a line.
  std::string line = std::string("[") + LevelTag(level) + "] GE(" + std::to_string(getpid()) + "): " + message + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}
}  // namespace ge_twin

#include "log.h"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "escape.h"
#include "op_log.h"

namespace ge_twin {
namespace {
constexpr size_t kMaxCauseChars = 1024;  // keeps error strings one readable line
thread_local ScopedErrorCapture *g_capture = nullptr;

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

std::string Format(const char *fmt, va_list args) {
  if (fmt == nullptr) return "";
  char message[2048];
  std::vsnprintf(message, sizeof(message), fmt, args);
  return message;
}

// One line whatever the message echoes (names from files may hold control bytes).
std::string OneLine(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return EscapeControl(text);
}
}  // namespace

ScopedErrorCapture::ScopedErrorCapture() : outer_(g_capture) { g_capture = this; }

ScopedErrorCapture::~ScopedErrorCapture() { g_capture = outer_; }

std::string ScopedErrorCapture::CauseSuffix() const {
  if (lines_.empty()) return "";
  std::string joined;
  for (const auto &line : lines_) joined += (joined.empty() ? "" : "; ") + line;
  if (joined.size() > kMaxCauseChars) joined = joined.substr(0, kMaxCauseChars) + "...";
  return ": " + joined;
}

void Emit(LogLevel level, const char *module, const std::string &message) {
  if (level == LogLevel::kError && g_capture != nullptr) g_capture->lines_.push_back(OneLine(message));
  if (static_cast<int>(level) < ThresholdFromEnv()) return;
  // One write per line so concurrent loggers do not interleave inside a line.
  std::string line = std::string("[") + LevelTag(level) + "] " + module + "(" + std::to_string(getpid()) +
                     "): " + OneLine(message) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

void Log(LogLevel level, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string message = Format(fmt, args);
  va_end(args);
  Emit(level, "GE", message);
}
}  // namespace ge_twin

extern "C" void GeTwinOpLog(int level, const char *op_name, const char *fmt, ...) {
  if (level < GE_TWIN_OP_LOG_DEBUG || level > GE_TWIN_OP_LOG_ERROR) level = GE_TWIN_OP_LOG_ERROR;
  va_list args;
  va_start(args, fmt);
  std::string message = ge_twin::Format(fmt, args);
  va_end(args);
  const std::string name = op_name == nullptr ? "" : op_name;
  ge_twin::Emit(static_cast<ge_twin::LogLevel>(level), "OP", name.empty() ? message : name + ": " + message);
}

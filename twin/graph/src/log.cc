#include "log.h"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "escape.h"
#include "op_log.h"
#include "twin/common/log/log.h"

namespace ge_twin {
namespace {
constexpr size_t kMaxCauseChars = 1024;  // keeps error strings one readable line
thread_local ScopedErrorCapture *g_capture = nullptr;

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

void Emit(LogLevel level, const char *module, const char *file, int line, const std::string &message) {
  if (level == LogLevel::kError && g_capture != nullptr) g_capture->lines_.push_back(OneLine(message));
  ascend_twin::log::Write(static_cast<ascend_twin::log::Level>(level), module, file, line, message);
}

void Log(LogLevel level, const char *file, int line, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string message = Format(fmt, args);
  va_end(args);
  Emit(level, ascend_twin::log::kGe, file, line, message);
}
}  // namespace ge_twin

namespace {
void OpLog(int level, const char *op_name, const char *file, int line, const char *fmt, va_list args) {
  if (level < GE_TWIN_OP_LOG_DEBUG || level > GE_TWIN_OP_LOG_ERROR) level = GE_TWIN_OP_LOG_ERROR;
  const std::string message = ge_twin::Format(fmt, args);
  const std::string name = op_name == nullptr ? "" : op_name;
  ge_twin::Emit(static_cast<ge_twin::LogLevel>(level), ascend_twin::log::kOp, file, line,
                name.empty() ? message : name + ": " + message);
}
}  // namespace

extern "C" void GeTwinOpLogAt(int level, const char *op_name, const char *file, int line, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  OpLog(level, op_name, file, line, fmt, args);
  va_end(args);
}

// Operator libraries built before GeTwinOpLogAt existed call this one (no call site to print).
extern "C" void GeTwinOpLog(int level, const char *op_name, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  OpLog(level, op_name, "op_log.h", 0, fmt, args);
  va_end(args);
}

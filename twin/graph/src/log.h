// The graph libraries' diagnostics, through the twin's one logger (twin/common/log: CANN's plog
// files, levels and variables), module GE; OP_LOG* lines (op_log.h) under module OP.
#ifndef GE_TWIN_GRAPH_SRC_LOG_H_
#define GE_TWIN_GRAPH_SRC_LOG_H_

#include <string>
#include <vector>

#include "export.h"

namespace ge_twin {
enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };
GE_TWIN_INTERNAL_API void Log(LogLevel level, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

// Logs one line (if the level passes) and feeds the capture.
GE_TWIN_INTERNAL_API void Emit(LogLevel level, const char *module, const char *file, int line,
                               const std::string &message);

// Collects the error lines logged on this thread while it lives (GE_TWIN_LOGE and op code's
// OP_LOGE), independent of the level filter, so that a failing call can report its cause.
// Captures nest: lines go to the innermost one.
class GE_TWIN_INTERNAL_API ScopedErrorCapture {
 public:
  ScopedErrorCapture();
  ~ScopedErrorCapture();
  ScopedErrorCapture(const ScopedErrorCapture &) = delete;
  ScopedErrorCapture &operator=(const ScopedErrorCapture &) = delete;

  const std::vector<std::string> &lines() const { return lines_; }
  // "" when nothing was captured, else ": <line>[; <line>...]" (one line, bounded length).
  std::string CauseSuffix() const;

 private:
  friend void Emit(LogLevel level, const char *module, const char *file, int line, const std::string &message);
  std::vector<std::string> lines_;
  ScopedErrorCapture *outer_;
};
}  // namespace ge_twin

#define GE_TWIN_LOGE(...) ::ge_twin::Log(::ge_twin::LogLevel::kError, __FILE__, __LINE__, __VA_ARGS__)
#define GE_TWIN_LOGW(...) ::ge_twin::Log(::ge_twin::LogLevel::kWarning, __FILE__, __LINE__, __VA_ARGS__)
#define GE_TWIN_LOGI(...) ::ge_twin::Log(::ge_twin::LogLevel::kInfo, __FILE__, __LINE__, __VA_ARGS__)

#endif  // GE_TWIN_GRAPH_SRC_LOG_H_

// One-line diagnostics on stderr, filtered by CANN's ASCEND_GLOBAL_LOG_LEVEL
// (0 debug, 1 info, 2 warning, 3 error = default, 4 null).
#ifndef GE_TWIN_GRAPH_SRC_LOG_H_
#define GE_TWIN_GRAPH_SRC_LOG_H_

namespace ge_twin {
enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };
void Log(LogLevel level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
}  // namespace ge_twin

#define GE_TWIN_LOGE(...) ::ge_twin::Log(::ge_twin::LogLevel::kError, __VA_ARGS__)
#define GE_TWIN_LOGW(...) ::ge_twin::Log(::ge_twin::LogLevel::kWarning, __VA_ARGS__)
#define GE_TWIN_LOGI(...) ::ge_twin::Log(::ge_twin::LogLevel::kInfo, __VA_ARGS__)

#endif  // GE_TWIN_GRAPH_SRC_LOG_H_

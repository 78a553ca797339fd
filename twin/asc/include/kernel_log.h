// KERNEL_LOG(level, fmt, ...) and ASCENDC_ASSERT(cond, behavior), as CANN defines them: active
// in CPU-debug builds (ASCENDC_CPU_DEBUG, what find_package(tikicpulib) sets), empty in device
// builds (bisheng without CPU debug), where CANN's also compile to nothing and do not evaluate
// their arguments. In CPU debug a KERNEL_LOG line is
//   [ERROR][Block_<idx>][AIV_0][<file>:<line>][<function>][<pid>] <message>     (NpuArch 2201)
//   [ERROR][Core_<idx>][<file>:<line>][<function>][<pid>] <message>             (other arches)
// on stdout, and a failed ASCENDC_ASSERT runs `behavior`, then traps (where CANN raises SIGABRT:
// the twin's block fails its launch with one line instead of killing the process).
#ifndef ASC_TWIN_KERNEL_LOG_H_
#define ASC_TWIN_KERNEL_LOG_H_

#include <cstdio>
#include <unistd.h>

#include "asc_twin/block_state.h"
#include "asc_twin/trap.h"

namespace AscendC {

enum class LogLevel : uint8_t {
  KERNEL_DEBUG = 0,
  KERNEL_INFO = 1,
  KERNEL_WARN = 2,
  KERNEL_ERROR = 3,
};

namespace twin {
// The bracketed prefix of a KERNEL_LOG line, without the message.
inline void KernelLogPrefix(const char* level, const char* file, int line, const char* function) {
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201
  std::printf("[%s][Block_%lld][AIV_0][%s:%d][%s][%u] ", level, static_cast<long long>(Block().block_idx), file, line,
              function, static_cast<unsigned>(getpid()));
#else
  std::printf("[%s][Core_%lld][%s:%d][%s][%u] ", level, static_cast<long long>(Block().block_idx), file, line, function,
              static_cast<unsigned>(getpid()));
#endif
}
[[noreturn]] inline void AscendcAssertFailed(const char* expr, const char* file, int line) {
  std::fflush(stdout);
  RaiseTrap("ASCENDC_ASSERT: (%s) failed at %s:%d", expr, file, line);
}
}  // namespace twin
}  // namespace AscendC

#if defined(ASCENDC_CPU_DEBUG) && ASCENDC_CPU_DEBUG == 1

#define ASC_TWIN_KERNEL_LOG_AT(levelName, format, ...)                             \
  do {                                                                             \
    ::AscendC::twin::KernelLogPrefix(levelName, __FILE__, __LINE__, __FUNCTION__); \
    std::printf(format "\n", ##__VA_ARGS__);                                       \
  } while (0)
#define KERNEL_LOG_KERNEL_DEBUG(format, ...) ASC_TWIN_KERNEL_LOG_AT("DEBUG", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_INFO(format, ...) ASC_TWIN_KERNEL_LOG_AT("INFO", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_WARN(format, ...) ASC_TWIN_KERNEL_LOG_AT("WARN", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_ERROR(format, ...) ASC_TWIN_KERNEL_LOG_AT("ERROR", format, ##__VA_ARGS__)
#define KERNEL_LOG(level, format, ...) KERNEL_LOG_##level(format, ##__VA_ARGS__)

#define ASCENDC_ASSERT(cond, behavior)                                 \
  do {                                                                 \
    if (!(cond)) {                                                     \
      behavior;                                                        \
      ::AscendC::twin::AscendcAssertFailed(#cond, __FILE__, __LINE__); \
    }                                                                  \
  } while (0)

#else

#define KERNEL_LOG(level, format, ...)
#define ASCENDC_ASSERT(cond, behavior)

#endif

#endif  // ASC_TWIN_KERNEL_LOG_H_

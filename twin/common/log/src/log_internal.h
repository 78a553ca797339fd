// The pieces behind log.h: where lines go (log_config.cc), what this process is called and when
// it started (process_info.cc), and the descriptors lines are written to (log_sink.cc).
#ifndef TWIN_COMMON_LOG_SRC_LOG_INTERNAL_H_
#define TWIN_COMMON_LOG_SRC_LOG_INTERNAL_H_

#include <sys/types.h>

#include <string>

#include "twin/common/log/log.h"

namespace ascend_twin::log::internal {

// ---- configuration from the environment (read at every call) ----
bool PrintToStdout();  // ASCEND_SLOG_PRINT_TO_STDOUT=1
bool EventsEnabled();  // ASCEND_GLOBAL_EVENT_ENABLE, default 1
// The level below which `module`'s lines are dropped: ASCEND_MODULE_LOG_LEVEL's entry for the
// module, else ASCEND_GLOBAL_LOG_LEVEL, else 3. 4 drops everything.
int ThresholdFor(const char *module);
int ProgramThreshold(const char *module);   // dlog_setlevel's level, or -1
bool ProgramEvents(bool from_environment);  // dlog_setlevel's event switch, if set

// ---- this process ----
struct ProcessInfo {
  pid_t pid = 0;
  std::string name;   // /proc/self/comm
  std::string stamp;  // start time, yyyymmddhhmmssmmm (local time)
};
// This process's facts (read again after a fork).
const ProcessInfo &Self();
// The start stamp of another process (a device process's host); "" if it cannot be read.
std::string StartStampOf(pid_t pid);
// gettid()
long ThreadId();

// Where this process's non-event lines go, relative to LogRoot(): "debug/plog/plog-..." or,
// after SetDeviceProcess, "debug/device-<id>/device-<host pid>_<host stamp>.log".
std::string DebugFileRelative();
std::string RunFileRelative();

// ---- output ----
// Appends `line` (ending in '\n') to `path` in one write, creating directories and the file on
// first use; stderr if that fails (once saying why).
void AppendToFile(const std::string &path, const std::string &line);
void WriteToStdout(const std::string &line);

}  // namespace ascend_twin::log::internal

#endif  // TWIN_COMMON_LOG_SRC_LOG_INTERNAL_H_

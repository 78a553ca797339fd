// The twin's one logger, with CANN's rules (CANN's log reference, "app logs"):
//
//   [ERROR] ASCENDCL(1234,model_exec):2026-12-01-23:06:24.123.456 [acl_model_api.cc:35]1236 text
//   [Level] ModuleName(PID,PName):DateTimeMS [FileName:LineNumber]TID LogContent
//
// Where lines go (read from the environment at every line, so a test may change it):
//   debug/plog/plog-<pid>_<yyyymmddhhmmssmmm>.log   DEBUG..ERROR lines the level lets through
//   run/plog/plog-<pid>_<stamp>.log                  EVENT lines (ASCEND_GLOBAL_EVENT_ENABLE)
//   debug/device-<id>/device-<pid>_<stamp>.log       lines of a device process (SetDeviceProcess)
// under ASCEND_PROCESS_LOG_PATH, else $ASCEND_WORK_PATH/log, else $HOME/ascend/log. <stamp> is
// the process's start time, so every library of one process (each holds its own copy of this
// code) and the Python module (ascend_log.py) name the same file. Files and directories are
// created on the first line that goes there: a clean run leaves none.
// ASCEND_SLOG_PRINT_TO_STDOUT=1 prints the lines on stdout instead. ASCEND_GLOBAL_LOG_LEVEL
// (0 debug, 1 info, 2 warning, 3 error = default, 4 none) and ASCEND_MODULE_LOG_LEVEL
// ("GE=1:ASCENDCL=0", wins for its modules) filter DEBUG..ERROR.
//
// Each line is one write(2) on an O_APPEND descriptor: threads and processes sharing a file never
// interleave inside a line. Logging never fails the caller: a file that cannot be written sends
// the line to stderr instead (with one line saying why, once per process).
#ifndef TWIN_COMMON_LOG_LOG_H_
#define TWIN_COMMON_LOG_LOG_H_

#include <cstddef>
#include <string>

namespace ascend_twin::log {

// CANN's slog levels (DLOG_DEBUG .. DLOG_ERROR, DLOG_EVENT).
enum class Level { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kEvent = 16 };

// Module names as CANN's logs spell them.
inline constexpr const char kAscendCl[] = "ASCENDCL";
inline constexpr const char kRuntime[] = "RUNTIME";
inline constexpr const char kGe[] = "GE";
inline constexpr const char kOp[] = "OP";

// Whether a line of `level` from `module` would be written (EVENT: whether events are enabled).
bool Enabled(Level level, const char *module);

// Writes one line (if enabled). `file` may be a path (its last component is printed); control
// characters in `message` are written as \xNN so a line stays one line.
void Write(Level level, const char *module, const char *file, int line, const std::string &message);

// printf-style Write.
void Writef(Level level, const char *module, const char *file, int line, const char *format, ...)
    __attribute__((format(printf, 5, 6)));

// Levels a program sets at run time (CANN's dlog_setlevel): `level` 0..4 for `module` (nullptr:
// every module, clearing per-module ones), -1 to give the module back to the environment. They
// win over ASCEND_GLOBAL_LOG_LEVEL / ASCEND_MODULE_LOG_LEVEL in this copy of the logger (each
// library holds its own). SetProgramEvents: 1/0 turns EVENT lines on/off, -1 restores the
// environment's ASCEND_GLOBAL_EVENT_ENABLE.
void SetProgramLevel(const char *module, int level);
void SetProgramEvents(int enabled);

// Makes this process a device process of `host_pid`: its lines go to
// debug/device-<device_id>/device-<host_pid>_<host stamp>.log, the host's start time read once here.
void SetDeviceProcess(int device_id, int host_pid);

// ---- the last errors of this thread, for aclGetRecentErrMsg ("obtains and clears") ----

// Keeps `message` (control characters escaped) as this thread's newest error; the oldest are
// dropped beyond 32.
void KeepRecentError(const std::string &message);
// The kept messages joined newest first with '\n', then cleared; nullptr if none. The pointer
// stays valid until this thread's next call.
const char *TakeRecentErrors();

// ---- what the lines are made of (also for tests) ----

// The directory the lines go to (without debug/... or run/...).
std::string LogRoot();
// "plog-<pid>_<stamp>.log" for this process.
std::string PlogFileName();
// Control characters as \xNN (one line that cannot drive a terminal).
std::string Printable(const std::string &text);
// Messages (log lines, kept errors) longer than this are shortened in the middle by Printable.
inline constexpr size_t kMaxMessageChars = 4096;

}  // namespace ascend_twin::log

#define ASCEND_TWIN_LOG(level, module, ...) \
  ::ascend_twin::log::Writef((level), (module), __FILE__, __LINE__, __VA_ARGS__)
#define ASCEND_TWIN_LOGE(module, ...) ASCEND_TWIN_LOG(::ascend_twin::log::Level::kError, module, __VA_ARGS__)
#define ASCEND_TWIN_LOGW(module, ...) ASCEND_TWIN_LOG(::ascend_twin::log::Level::kWarning, module, __VA_ARGS__)
#define ASCEND_TWIN_LOGI(module, ...) ASCEND_TWIN_LOG(::ascend_twin::log::Level::kInfo, module, __VA_ARGS__)
#define ASCEND_TWIN_LOGD(module, ...) ASCEND_TWIN_LOG(::ascend_twin::log::Level::kDebug, module, __VA_ARGS__)
#define ASCEND_TWIN_EVENT(module, ...) ASCEND_TWIN_LOG(::ascend_twin::log::Level::kEvent, module, __VA_ARGS__)

#endif  // TWIN_COMMON_LOG_LOG_H_

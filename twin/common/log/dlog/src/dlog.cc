// libunified_dlog.so: CANN's dlog C API over the twin's logger (twin/common/log), so a program
// linking `unified_dlog` logs where and how CANN's would.
#include <cstdarg>
#include <cstdio>
#include <string>

#include "toolchain/slog.h"
#include "twin/common/log/log.h"

namespace {

using ascend_twin::log::Level;

const char* ModuleName(int id) {
  switch (id) {
    case SLOG:
      return "SLOG";
    case HCCL:
      return "HCCL";
    case FMK:
      return "FMK";
    case DVPP:
      return "DVPP";
    case RUNTIME:
      return "RUNTIME";
    case CCE:
      return "CCE";
    case DRV:
      return "DRV";
    case KERNEL:
      return "KERNEL";
    case CCECPU:
      return "CCECPU";
    case PROFILING:
      return "PROFILING";
    case APP:
      return "APP";
    case AICPU:
      return "AICPU";
    case FE:
      return "FE";
    case GE:
      return "GE";
    case ASCENDCL:
      return "ASCENDCL";
    case TBE:
      return "TBE";
    case TUNE:
      return "TUNE";
    case OP:
      return "OP";
    case ASCENDCKERNEL:
      return "ASCENDCKERNEL";
    case RTC:
      return "RTC";
    default:
      return nullptr;
  }
}

// "MODULE<id>" for ids without a name here (the line still says which module wrote it).
std::string NameOf(int id) {
  const char* n = ModuleName(id);
  return n != nullptr ? n : "MODULE" + std::to_string(id);
}

bool ToLevel(int level, Level* out) {
  switch (level) {
    case DLOG_DEBUG:
      *out = Level::kDebug;
      return true;
    case DLOG_INFO:
      *out = Level::kInfo;
      return true;
    case DLOG_WARN:
      *out = Level::kWarning;
      return true;
    case DLOG_ERROR:
      *out = Level::kError;
      return true;
    case DLOG_EVENT:
      *out = Level::kEvent;
      return true;
    default:
      return false;
  }
}

void WriteV(int moduleId, int level, const char* file, int line, const char* fmt, va_list args) {
  Level lv;
  if (fmt == nullptr || !ToLevel(level, &lv)) return;
  const std::string module = NameOf(moduleId);
  if (!ascend_twin::log::Enabled(lv, module.c_str())) return;
  va_list copy;
  va_copy(copy, args);
  const int needed = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string message(needed > 0 ? static_cast<size_t>(needed) : 0, '\0');
  if (needed > 0) std::vsnprintf(&message[0], message.size() + 1, fmt, args);
  ascend_twin::log::Write(lv, module.c_str(), file, line, message);
}

}  // namespace

extern "C" {

void dlog_init(void) {}

int dlog_getlevel(int moduleId, int* enableEvent) {
  const std::string module = NameOf(moduleId);
  if (enableEvent != nullptr) *enableEvent = ascend_twin::log::Enabled(Level::kEvent, module.c_str()) ? 1 : 0;
  for (int level = DLOG_DEBUG; level <= DLOG_ERROR; ++level) {
    Level lv;
    ToLevel(level, &lv);
    if (ascend_twin::log::Enabled(lv, module.c_str())) return level;
  }
  return DLOG_NULL;
}

int dlog_setlevel(int moduleId, int level, int enableEvent) {
  if (level < DLOG_DEBUG || level > DLOG_NULL) {
    ascend_twin::log::Writef(Level::kError, "SLOG", __FILE__, __LINE__,
                             "dlog_setlevel: level %d is not one of DLOG_DEBUG (0) .. DLOG_NULL (4)", level);
    return -1;
  }
  if (moduleId == -1) {
    ascend_twin::log::SetProgramLevel(nullptr, level);
  } else {
    ascend_twin::log::SetProgramLevel(NameOf(moduleId).c_str(), level);
  }
  ascend_twin::log::SetProgramEvents(enableEvent != 0 ? 1 : 0);
  return 0;
}

int CheckLogLevel(int moduleId, int logLevel) {
  Level lv;
  if (!ToLevel(logLevel, &lv)) return 0;
  return ascend_twin::log::Enabled(lv, NameOf(moduleId).c_str()) ? 1 : 0;
}

void DlogVaList(int moduleId, int level, const char* fmt, va_list list) {
  WriteV(moduleId, level, "dlog", 0, fmt, list);
}

#define ASC_TWIN_DLOG_FORWARD(level_expr)               \
  va_list args;                                         \
  va_start(args, fmt);                                  \
  WriteV(moduleId, (level_expr), "dlog", 0, fmt, args); \
  va_end(args);

void DlogRecord(int moduleId, int level, const char* fmt, ...) { ASC_TWIN_DLOG_FORWARD(level) }
void DlogInner(int moduleId, int level, const char* fmt, ...) { ASC_TWIN_DLOG_FORWARD(level) }
void DlogErrorInner(int moduleId, const char* fmt, ...) { ASC_TWIN_DLOG_FORWARD(DLOG_ERROR) }
void DlogWarnInner(int moduleId, const char* fmt, ...) { ASC_TWIN_DLOG_FORWARD(DLOG_WARN) }
void DlogInfoInner(int moduleId, const char* fmt, ...) { ASC_TWIN_DLOG_FORWARD(DLOG_INFO) }
void DlogDebugInner(int moduleId, const char* fmt, ...) { ASC_TWIN_DLOG_FORWARD(DLOG_DEBUG) }
void DlogEventInner(int moduleId, const char* fmt, ...) { ASC_TWIN_DLOG_FORWARD(DLOG_EVENT) }

#undef ASC_TWIN_DLOG_FORWARD

void DlogFlush(void) {}

void AscendTwinDlogAt(int moduleId, int level, const char* file, int line, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  WriteV(moduleId, level, file, line, fmt, args);
  va_end(args);
}

}  // extern "C"

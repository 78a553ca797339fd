/*
 * toolchain/slog.h: CANN's dlog C API (lib64/libunified_dlog.so), for programs and libraries
 * that log through slog: levels, module ids, dlog_getlevel / dlog_setlevel / CheckLogLevel, the
 * DlogRecord / Dlog*Inner writers and the dlog_* macros. Lines follow CANN's plog rules (the
 * twin's logger, twin/common/log): same files, same format, same environment variables.
 */
#ifndef D_SYSLOG_H_
#define D_SYSLOG_H_

#include <stdarg.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLOG_DEBUG 0x0
#define DLOG_INFO 0x1
#define DLOG_WARN 0x2
#define DLOG_ERROR 0x3
#define DLOG_NULL 0x4
#define DLOG_EVENT 0x10

#define DLOG_EVENT_DISABLE 0
#define DLOG_EVENT_ENABLE 1

/* module ids, CANN's numbering */
enum {
  SLOG = 0,
  IDEDD = 1,
  SCC = 2,
  HCCL = 3,
  FMK = 4,
  CCU = 5,
  DVPP = 6,
  RUNTIME = 7,
  CCE = 8,
  HDC = 9,
  DRV = 10,
  NET = 11,
  DEVMM = 22,
  KERNEL = 23,
  LIBMEDIA = 24,
  CCECPU = 25,
  ROS = 27,
  HCCP = 28,
  ROCE = 29,
  TEFUSION = 30,
  PROFILING = 31,
  DP = 32,
  APP = 33,
  TS = 34,
  TSDUMP = 35,
  AICPU = 36,
  LP = 37,
  TDT = 38,
  FE = 39,
  MD = 40,
  MB = 41,
  ME = 42,
  IMU = 43,
  IMP = 44,
  GE = 45,
  CAMERA = 47,
  ASCENDCL = 48,
  TEEOS = 49,
  ISP = 50,
  SIS = 51,
  HSM = 52,
  DSS = 53,
  PROCMGR = 54,
  BBOX = 55,
  AIVECTOR = 56,
  TBE = 57,
  FV = 58,
  TUNE = 60,
  HSS = 61,
  FFTS = 62,
  OP = 63,
  UDF = 64,
  HICAID = 65,
  TSYNC = 66,
  AUDIO = 67,
  TPRT = 68,
  ASCENDCKERNEL = 69,
  ASYS = 70,
  ATRACE = 71,
  RTC = 72,
  SYSMONITOR = 73,
  AML = 74,
  ADETECT = 75,
  INVLID_MOUDLE_ID = 76
};

/* Nothing to set up: the logger reads its variables at every line. */
void dlog_init(void);
/* The module's level (0..4); *enableEvent (if not null) whether EVENT lines are written. */
int dlog_getlevel(int moduleId, int *enableEvent);
/* Sets the module's level (moduleId -1: every module) and the event switch for this
 * process's dlog lines; 0 on success, -1 for a level outside 0..4. */
int dlog_setlevel(int moduleId, int level, int enableEvent);
/* 1 if a line of logLevel from the module would be written, else 0. */
int CheckLogLevel(int moduleId, int logLevel);
/* One line of `level` (DLOG_DEBUG..DLOG_ERROR, DLOG_EVENT). */
void DlogRecord(int moduleId, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void DlogInner(int moduleId, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void DlogErrorInner(int moduleId, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void DlogWarnInner(int moduleId, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void DlogInfoInner(int moduleId, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void DlogDebugInner(int moduleId, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void DlogEventInner(int moduleId, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void DlogVaList(int moduleId, int level, const char *fmt, va_list list);
/* Lines are written when logged: nothing to flush. */
void DlogFlush(void);
/* The writer behind the macros: the caller's file and line in the line's [File:Line]. */
void AscendTwinDlogAt(int moduleId, int level, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#define dlog_error(moduleId, fmt, ...) AscendTwinDlogAt(moduleId, DLOG_ERROR, __FILE__, __LINE__, fmt, ##__VA_ARGS__)
#define dlog_warn(moduleId, fmt, ...) AscendTwinDlogAt(moduleId, DLOG_WARN, __FILE__, __LINE__, fmt, ##__VA_ARGS__)
#define dlog_info(moduleId, fmt, ...) AscendTwinDlogAt(moduleId, DLOG_INFO, __FILE__, __LINE__, fmt, ##__VA_ARGS__)
#define dlog_debug(moduleId, fmt, ...) AscendTwinDlogAt(moduleId, DLOG_DEBUG, __FILE__, __LINE__, fmt, ##__VA_ARGS__)
#define dlog_event(moduleId, fmt, ...) AscendTwinDlogAt(moduleId, DLOG_EVENT, __FILE__, __LINE__, fmt, ##__VA_ARGS__)
#define Dlog(moduleId, level, fmt, ...) AscendTwinDlogAt(moduleId, level, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif /* D_SYSLOG_H_ */

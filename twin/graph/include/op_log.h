/*
 * Logging for operator code (prototype inference functions), as CANN's op_log.h:
 *   OP_LOGE(op_name, fmt, ...)   error      OP_LOGW(op_name, fmt, ...)   warning
 *   OP_LOGI(op_name, fmt, ...)   info       OP_LOGD(op_name, fmt, ...)   debug
 * op_name is a const char *, std::string or ge::AscendString (usually context->GetNodeName()).
 *
 * Lines go where CANN's logs go (the twin's logger: $HOME/ascend/log/debug/plog/plog-<pid>_*.log,
 * or stdout with ASCEND_SLOG_PRINT_TO_STDOUT=1) as "[ERROR] OP(<pid>,<process>):<time>
 * [<file>:<line>]<tid> <op_name>: <message>", filtered by ASCEND_GLOBAL_LOG_LEVEL (0 debug,
 * 1 info, 2 warning, 3 error = default, 4 none) and ASCEND_MODULE_LOG_LEVEL. Error lines
 * logged while the graph library runs an inference function (GeTwinGraphInferOp) are also
 * attached, whatever the level filter, to the error that call reports, so the cause reaches the
 * caller (e.g. a Python GeError) and not only the log.
 */
#ifndef GE_TWIN_OP_LOG_H_
#define GE_TWIN_OP_LOG_H_

#include <string>

#include "graph/ascend_string.h"

/* CANN's slog levels (DLOG_DEBUG .. DLOG_ERROR). */
#define GE_TWIN_OP_LOG_DEBUG 0
#define GE_TWIN_OP_LOG_INFO 1
#define GE_TWIN_OP_LOG_WARN 2
#define GE_TWIN_OP_LOG_ERROR 3

extern "C" __attribute__((visibility("default"))) void GeTwinOpLogAt(int level, const char *op_name, const char *file,
                                                                     int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The entry point of operator libraries built before GeTwinOpLogAt (no file:line in the line). */
extern "C" __attribute__((visibility("default"))) void GeTwinOpLog(int level, const char *op_name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

namespace ge_twin {
namespace op_log {
inline const char *OpNameText(const char *name) { return name == nullptr ? "" : name; }
inline const char *OpNameText(const std::string &name) { return name.c_str(); }
inline const char *OpNameText(const ge::AscendString &name) { return OpNameText(name.GetString()); }
}  // namespace op_log
}  // namespace ge_twin

#define GE_TWIN_OP_LOG(level, op_name, ...) \
  GeTwinOpLogAt((level), ::ge_twin::op_log::OpNameText(op_name), __FILE__, __LINE__, __VA_ARGS__)
#define OP_LOGE(op_name, ...) GE_TWIN_OP_LOG(GE_TWIN_OP_LOG_ERROR, op_name, __VA_ARGS__)
#define OP_LOGW(op_name, ...) GE_TWIN_OP_LOG(GE_TWIN_OP_LOG_WARN, op_name, __VA_ARGS__)
#define OP_LOGI(op_name, ...) GE_TWIN_OP_LOG(GE_TWIN_OP_LOG_INFO, op_name, __VA_ARGS__)
#define OP_LOGD(op_name, ...) GE_TWIN_OP_LOG(GE_TWIN_OP_LOG_DEBUG, op_name, __VA_ARGS__)

#endif  // GE_TWIN_OP_LOG_H_

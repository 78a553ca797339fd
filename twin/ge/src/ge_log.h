// GE's console lines on stderr ("[ERROR] GE(<pid>): ...", "[WARNING] GE(<pid>): ...", README.md
// "How a graph is compiled") and the last error and warning texts kept for GEGetErrorMsg /
// GEGetWarningMsg: process-wide, the compiler's diagnostics included as they came. Not a second
// logger beside twin/common/log: it reads no log variable and writes no plog file, and the plog
// logger's pieces would change both texts (its lines are plog-formatted and level-filtered, its
// kept errors per thread, taken once and with control characters escaped). Each library links
// its own copy (hidden symbols).
#ifndef TWIN_GE_SRC_GE_LOG_H_
#define TWIN_GE_SRC_GE_LOG_H_

#include <string>

namespace ge_twin {

// Prints "[ERROR] GE(pid): <line>" and every further line of `detail` (e.g. a compiler's
// diagnostics) as-is, and records line + detail as the last error.
void LogError(const std::string &line, const std::string &detail = "");
void LogWarning(const std::string &line);
std::string LastErrorMessage();
std::string LastWarningMessage();

}  // namespace ge_twin

#endif  // TWIN_GE_SRC_GE_LOG_H_

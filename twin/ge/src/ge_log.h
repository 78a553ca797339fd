// One line per event on stderr ("[ERROR] GE(<pid>): ..."), as twin/graph logs, and the last error
// text kept for GEGetErrorMsg. Each library links its own copy (hidden symbols).
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

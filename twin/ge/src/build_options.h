// Option helpers shared by libge_compiler.so (aclgrph*) and libge_runner.so (Session).
#ifndef TWIN_GE_SRC_BUILD_OPTIONS_H_
#define TWIN_GE_SRC_BUILD_OPTIONS_H_

#include <map>
#include <string>

#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"

namespace ge_twin {

constexpr const char *kSocVersionOption = "ge.socVersion";

// ge.socVersion must name a SoC with a platform config in the tree; otherwise GRAPH_PARAM_INVALID
// with one logged line listing the known SoCs. `api` starts the line.
ge::graphStatus CheckSocVersion(const std::string &api, const std::string &soc);

std::map<std::string, std::string> ToStdMap(const std::map<ge::AscendString, ge::AscendString> &options);

}  // namespace ge_twin

#endif  // TWIN_GE_SRC_BUILD_OPTIONS_H_

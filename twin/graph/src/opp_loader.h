// Discovery and loading of OPP proto libraries from ASCEND_CUSTOM_OPP_PATH-style root lists.
#ifndef GE_TWIN_GRAPH_SRC_OPP_LOADER_H_
#define GE_TWIN_GRAPH_SRC_OPP_LOADER_H_

#include <string>
#include <vector>

namespace ge_twin {
// The .so files CANN would load for these ':'-separated roots, in load order. Returns "" or a
// one-line error (an entry that does not exist, too many or too large libraries).
std::string DiscoverOppLibraries(const std::string &root_list, std::vector<std::string> *libraries);
// Discovers and dlopens (RTLD_NOW | RTLD_GLOBAL) every library; stops at the first failure.
std::string LoadOppLibraries(const std::string &root_list, std::vector<std::string> *loaded);
// The host's <arch> directory name: uname -m with arm64 -> aarch64, amd64 -> x86_64.
std::string HostCpuDirName();
}  // namespace ge_twin

#endif  // GE_TWIN_GRAPH_SRC_OPP_LOADER_H_

// Discovery and loading of OPP proto libraries (libopp_registry.so): ASCEND_CUSTOM_OPP_PATH-style
// roots first, then the CANN OPP tree at ASCEND_OPP_PATH. See twin/graph/README.md.
#ifndef GE_TWIN_GRAPH_SRC_OPP_LOADER_H_
#define GE_TWIN_GRAPH_SRC_OPP_LOADER_H_

#include <string>
#include <vector>

#include "export.h"

namespace ge_twin {
// The .so files CANN would load, in load order: for each ':'-separated custom root
// <root>/libcust_opapi.so and <root>/op_graph/lib/linux/<arch>/*.so; then, under opp_path (may be
// ""), the vendors of <opp>/vendors/config.ini's load_priority, <opp>/op_proto/custom/*.so and
// <opp>/built-in/op_proto/lib/linux/<arch>/*.so. Returns "" or a one-line error (a custom root
// that does not exist, an unreadable config.ini, too many or too large libraries).
GE_TWIN_INTERNAL_API std::string DiscoverOppLibraries(const std::string &custom_roots, const std::string &opp_path,
                                                      std::vector<std::string> *libraries);
// Discovers, checks the ABI of, and dlopens (RTLD_NOW | RTLD_GLOBAL) every library; stops at the
// first failure. `loaded` lists what was loaded, in order.
GE_TWIN_INTERNAL_API std::string LoadOppLibraries(const std::string &custom_roots, const std::string &opp_path,
                                                  std::vector<std::string> *loaded);
// "" unless `symbol_text` (an undefined symbol name or a dlerror() text) names the ABI marker of
// the other _GLIBCXX_USE_CXX11_ABI (include/ge_twin/abi_guard.h); then the one-line error for
// `library`: "<library>: built with _GLIBCXX_USE_CXX11_ABI=<a>; CANN libraries use
// _GLIBCXX_USE_CXX11_ABI=<b>: rebuild it with -D_GLIBCXX_USE_CXX11_ABI=<b>".
GE_TWIN_INTERNAL_API std::string AbiMismatchError(const std::string &library, const std::string &symbol_text);
// The host's <arch> directory name: uname -m with arm64 -> aarch64, amd64 -> x86_64.
GE_TWIN_INTERNAL_API std::string HostCpuDirName();
}  // namespace ge_twin

#endif  // GE_TWIN_GRAPH_SRC_OPP_LOADER_H_

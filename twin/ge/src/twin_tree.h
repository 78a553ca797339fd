// Where the CANN-like install tree is and which Python runs the graph compiler — the one place
// libge_compiler.so and libge_runner.so decide it (bin/atc follows the same rule):
//   tree:   the directory above this library's own directory (…/lib64/libge_*.so -> …) when it
//           holds python/site-packages, else $ASCEND_HOME_PATH;
//   python: $ASCEND_TWIN_PYTHON if set, else `python3` from PATH;
//   child environment: the caller's, with <tree>/python/site-packages prepended to PYTHONPATH,
//           <tree>/lib64 to LD_LIBRARY_PATH, and ASCEND_HOME_PATH=<tree> (the compiler finds
//           libgraph.so, bisheng and the SoC configs there).
#ifndef TWIN_GE_SRC_TWIN_TREE_H_
#define TWIN_GE_SRC_TWIN_TREE_H_

#include <string>
#include <vector>

namespace ge_twin {

// Returns false with one line in *error when neither rule gives a usable tree.
bool ResolveTree(std::string *tree, std::string *error);
std::string PythonInterpreter();
std::vector<std::string> ChildEnvironment(const std::string &tree);
// $ASCEND_TWIN_PLATFORM_DIR, else <tree>/<machine>-linux/data/platform_config.
std::string PlatformConfigDir(const std::string &tree);
// SoC names with a <SoC>.ini in dir, sorted.
std::vector<std::string> KnownSocs(const std::string &dir);

}  // namespace ge_twin

#endif  // TWIN_GE_SRC_TWIN_TREE_H_

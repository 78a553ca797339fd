// Graph -> OM bytes through the one graph compiler (Python ge._compiler, shared with Session and
// atc): the graph is written to a temp AIR, `python -m ascend_atc.ir_build` compiles it in a child
// process into a temp OM exactly as `atc --framework=1` would, and the OM is read back. The temp
// directory is always removed. Why a child process: the compiler and the holders it loads are
// Python; embedding an interpreter would put libpython (and the holders' imports) into every
// process that links libge_compiler.so/libge_runner.so.
#ifndef TWIN_GE_SRC_CHILD_COMPILE_H_
#define TWIN_GE_SRC_CHILD_COMPILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graph/ge_error_codes.h"
#include "graph/graph.h"

namespace ge_twin {

struct CompileRequest {
  std::string api;          // the calling API, first word of every error line
  std::string soc_version;  // ge.socVersion
  std::string log_level;    // atc's --log: debug|info|warning|error|null
  std::string input_shape;  // validated by the compiler entry as atc validates --input_shape
  std::string input_shape_range;
};

// GRAPH_SUCCESS with the OM in *om; otherwise one error line has been logged (with the
// compiler's diagnostics after it) and the status says why: GRAPH_PARAM_INVALID for a rejected
// option value, GRAPH_FAILED for everything else.
ge::graphStatus CompileInChild(const ge::Graph &graph, const CompileRequest &request, std::vector<uint8_t> *om);

}  // namespace ge_twin

#endif  // TWIN_GE_SRC_CHILD_COMPILE_H_

#include "twin/ge/src/child_compile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "twin/common/process/child_process.h"
#include "twin/ge/src/ge_log.h"
#include "twin/ge/src/twin_tree.h"

namespace ge_twin {
namespace {

// Exit code of `python -m ascend_atc.ir_build` for a rejected option value (1: the graph did not
// compile; both write the reason to --error_file; see twin/atc/ascend_atc/ir_build.py).
constexpr int kExitBadOption = 2;

bool ReadFile(const std::string &path, std::string *content) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  content->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

std::string FirstLine(const std::string &text, std::string *rest) {
  const size_t newline = text.find('\n');
  if (newline == std::string::npos) {
    rest->clear();
    return text;
  }
  *rest = text.substr(newline + 1);
  while (!rest->empty() && rest->back() == '\n') rest->pop_back();
  return text.substr(0, newline);
}

// Runs argv with envp, inheriting stdin/stdout/stderr, and returns the wait status (or -1 with
// *error set when the program could not be started).
int Spawn(const std::vector<std::string> &argv, const std::vector<std::string> &envp, std::string *error) {
  asc_twin::process::ChildIo io;
  io.env = &envp;
  io.search_path = true;
  return asc_twin::process::RunChild(argv, io, error);
}

}  // namespace

ge::graphStatus CompileInChild(const ge::Graph &graph, const CompileRequest &request, std::vector<uint8_t> *om) {
  const std::string graph_name = graph.GetName();
  const std::string what = request.api + ": graph '" + graph_name + "'";
  std::string tree;
  std::string error;
  if (!ResolveTree(&tree, &error)) {
    LogError(request.api + ": " + error);
    return ge::GRAPH_FAILED;
  }
  asc_twin::process::ScratchDir work("ge_ir_build");
  if (work.path().empty()) {
    LogError(request.api + ": " + work.error());
    return ge::GRAPH_FAILED;
  }
  const std::string air = work.path() + "/graph.air";
  const std::string om_path = work.path() + "/graph.om";
  const std::string error_path = work.path() + "/error.txt";
  if (graph.SaveToFile(air.c_str()) != ge::GRAPH_SUCCESS) {
    LogError(what + " cannot be serialized to AIR (see the graph library's message above)");
    return ge::GRAPH_FAILED;
  }
  const std::string python = PythonInterpreter();
  std::vector<std::string> argv = {python,
                                   "-m",
                                   "ascend_atc.ir_build",
                                   "--air=" + air,
                                   "--om=" + om_path,
                                   "--error_file=" + error_path,
                                   "--soc_version=" + request.soc_version,
                                   "--log=" + (request.log_level.empty() ? std::string("null") : request.log_level)};
  if (!request.input_shape.empty()) argv.push_back("--input_shape=" + request.input_shape);
  if (!request.input_shape_range.empty()) argv.push_back("--input_shape_range=" + request.input_shape_range);
  const int status = Spawn(argv, ChildEnvironment(tree), &error);
  if (status < 0) {
    LogError(what + ": " + error + " (the graph compiler's interpreter; set ASCEND_TWIN_PYTHON)");
    return ge::GRAPH_FAILED;
  }
  std::string message;
  const bool has_message = ReadFile(error_path, &message) && !message.empty();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    std::string bytes;
    if (!ReadFile(om_path, &bytes) || bytes.empty()) {
      LogError(what + ": the graph compiler reported success but wrote no OM");
      return ge::GRAPH_FAILED;
    }
    om->assign(bytes.begin(), bytes.end());
    return ge::GRAPH_SUCCESS;
  }
  if (has_message) {
    std::string detail;
    const std::string first = FirstLine(message, &detail);
    const bool bad_option = WIFEXITED(status) && WEXITSTATUS(status) == kExitBadOption;
    LogError(
        bad_option ? request.api + ": " + first : what + " failed to compile for " + request.soc_version + ": " + first,
        detail);
    return bad_option ? ge::GRAPH_PARAM_INVALID : ge::GRAPH_FAILED;
  }
  std::ostringstream how;
  if (WIFEXITED(status))
    how << "exited with status " << WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    how << "was killed by signal " << WTERMSIG(status);
  else
    how << "ended with wait status " << status;
  LogError(what + ": the graph compiler (" + python + " -m ascend_atc.ir_build, tree " + tree + ") " + how.str() +
           " without a result; its own output is above");
  return ge::GRAPH_FAILED;
}

}  // namespace ge_twin

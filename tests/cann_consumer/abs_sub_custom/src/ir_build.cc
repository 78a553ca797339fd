/* Offline, without atc: the same graph compiled in-process with GE's IR build API. */
#include <iostream>
#include <map>

#include "abs_sub_graph.h"
#include "ge_ir_build.h"

int main(int argc, char **argv) {
  const char *soc = argc > 1 ? argv[1] : "Ascend910B1";
  std::map<ge::AscendString, ge::AscendString> global_options = {{"ge.socVersion", soc}};
  if (ge::aclgrphBuildInitialize(global_options) != ge::GRAPH_SUCCESS) {
    std::cerr << "aclgrphBuildInitialize failed" << std::endl;
    return 1;
  }
  ge::ModelBufferData model;
  std::map<ge::AscendString, ge::AscendString> build_options = {{"input_format", "ND"}};
  ge::Graph graph = abs_sub::BuildGraph();
  int status = 0;
  if (ge::aclgrphBuildModel(graph, build_options, model) != ge::GRAPH_SUCCESS) {
    std::cerr << "aclgrphBuildModel failed" << std::endl;
    status = 1;
  } else if (ge::aclgrphSaveModel("abs_sub_ir", model) != ge::GRAPH_SUCCESS) {
    std::cerr << "aclgrphSaveModel failed" << std::endl;
    status = 1;
  } else {
    std::cout << "IR_BUILD_OM=PASS size=" << model.length << std::endl;
  }
  ge::aclgrphBuildFinalize();
  return status;
}

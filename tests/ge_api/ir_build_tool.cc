// ir_build_tool <out_prefix> <air_path> <N> <SoC>: builds the add graph (N float32 per input),
// writes it as AIR, then aclgrphBuildInitialize({ge.socVersion: SoC}) -> aclgrphBuildModel ->
// aclgrphSaveModel(out_prefix) -> <out_prefix>.om, as CANN's offline_compile_run sample does.
// The test compares that OM with atc's on the AIR. Prints IR_BUILD_OM=PASS on success.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "ge/ge_ir_build.h"
#include "offline/add_graph.h"

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s <out_prefix> <air_path> <N> <SoC>\n", argv[0]);
    return 2;
  }
  const ge::Graph graph = add_graph::BuildAddGraph(std::atoll(argv[3]));
  if (graph.SaveToFile(argv[2]) != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "ir_build_tool: SaveToFile(%s) failed\n", argv[2]);
    return 1;
  }
  std::map<ge::AscendString, ge::AscendString> global_options = {{"ge.socVersion", argv[4]}};
  ge::graphStatus status = ge::aclgrphBuildInitialize(global_options);
  if (status != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "ir_build_tool: aclgrphBuildInitialize failed: %u\n", status);
    return 1;
  }
  ge::ModelBufferData model;
  const std::map<ge::AscendString, ge::AscendString> build_options = {{ge::ir_option::INPUT_FORMAT, "ND"}};
  status = ge::aclgrphBuildModel(graph, build_options, model);
  if (status != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "ir_build_tool: aclgrphBuildModel failed: %u\n", status);
    return 1;
  }
  status = ge::aclgrphSaveModel(argv[1], model);
  if (status != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "ir_build_tool: aclgrphSaveModel failed: %u\n", status);
    return 1;
  }
  ge::aclgrphBuildFinalize();
  std::printf("ir_build_tool: wrote %s.om (%llu bytes)\nIR_BUILD_OM=PASS\n", argv[1],
              static_cast<unsigned long long>(model.length));
  return 0;
}

// Builds x1 + x2 -> ConcatN with the generated C++ ES API and saves it as AIR (argv[1]).
#include <cstdio>

#include "es_custom_ops.h"
#include "es_graph_builder.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: build_graph OUT.air\n");
    return 2;
  }
  ge::es::EsGraphBuilder builder("cmake_graph");
  auto x1 = builder.CreateInput(0, "x1", ge::DT_FLOAT, ge::FORMAT_ND, {8});
  auto x2 = builder.CreateInput(1, "x2", ge::DT_FLOAT, ge::FORMAT_ND, {8});
  auto sum = ge::es::PythonCompilableAddCustom(x1, x2);
  auto cat = ge::es::ConcatN({sum, x1}, ge::es::EsTensorHolder(), 0, 2.0f);
  if (!cat.IsValid() || ge::es::EsGraphBuilder::SetOutput(cat, 0) != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "build_graph: %s\n", EsGetLastErrorMessage());
    return 1;
  }
  auto graph = builder.BuildAndReset();
  if (graph == nullptr || graph->SaveToFile(argv[1]) != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "build_graph: %s\n", EsGetLastErrorMessage());
    return 1;
  }
  std::printf("ES_CMAKE_GRAPH=PASS %s\n", argv[1]);
  return 0;
}

// es_graph_build <out.air> [n]: x1, x2 (float[n]) -> PythonCompilableAddCustom -> output, built with
// the C++ ES API gen_esb generated for proto/libcust_opapi.so (//ops/add_custom:es_custom_code).
#include <cstdio>
#include <cstdlib>

#include "es_custom_ops.h"
#include "es_graph_builder.h"

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: es_graph_build OUT.air [N]\n");
    return 2;
  }
  const int64_t n = argc == 3 ? std::atoll(argv[2]) : 1024;
  ge::es::EsGraphBuilder builder("es_add_custom");
  auto x1 = builder.CreateInput(0, "x1", ge::DT_FLOAT, ge::FORMAT_ND, {n});
  auto x2 = builder.CreateInput(1, "x2", ge::DT_FLOAT, ge::FORMAT_ND, {n});
  auto y = ge::es::PythonCompilableAddCustom(x1, x2);
  if (!y.IsValid() || ge::es::EsGraphBuilder::SetOutput(y, 0) != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "es_graph_build: %s\n", EsGetLastErrorMessage());
    return 1;
  }
  auto graph = builder.BuildAndReset();
  if (graph == nullptr || graph->SaveToFile(argv[1]) != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "es_graph_build: cannot build or save the graph: %s\n", EsGetLastErrorMessage());
    return 1;
  }
  std::printf("ES_AIR_BUILD=PASS %s\n", argv[1]);
  return 0;
}
